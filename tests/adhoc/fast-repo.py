#!/usr/bin/env python3
"""A git repository of a kernel source tarball, made in one pass: git fast-import reads
the tarball's files from a stream (no extraction, no 80k-file `git add`; objects stored
uncompressed), then a second commit replaces some files. The work tree holds one file
(a sparse checkout): every other file is marked skip-worktree, so `git status` is clean
without writing the tree out, and `git archive` exports the commits whole. Test
scaffolding for `harness run --kernels PATH@REF` (tests/adhoc/own-change.sh git-lines):
about 50 s of CPU here where extracting and committing the tree took 4-6 minutes.
Usage: fast-repo.py TARBALL REPO [PATH=NEWFILE ...]"""
import subprocess, sys, tarfile

tarball, repo, changes = sys.argv[1], sys.argv[2], dict(a.split('=', 1) for a in sys.argv[3:])
subprocess.run(['git', 'init', '-q', repo], check=True)
fi = subprocess.Popen(['git', '-C', repo, '-c', 'pack.compression=0', '-c', 'core.compression=0',
                       'fast-import', '--quiet'], stdin=subprocess.PIPE)
out = fi.stdin

def data(b):
    out.write(b'data %d\n' % len(b))
    out.write(b)
    out.write(b'\n')

def commit(msg):
    out.write(b'commit refs/heads/master\ncommitter t <t@t.invalid> 0 +0000\n')
    data(msg.encode())  # a second commit continues the branch fast-import holds

commit('Debian source')
with tarfile.open(tarball, 'r|*') as t:
    for m in t:
        name = m.name.split('/', 1)[1] if '/' in m.name else ''
        if not name:
            continue
        if m.issym():
            out.write(b'M 120000 inline %s\n' % name.encode())
            data(m.linkname.encode())
        elif m.isfile():
            out.write(b'M %s inline %s\n' % (b'100755' if m.mode & 0o111 else b'100644', name.encode()))
            data(t.extractfile(m).read())
if changes:
    commit('changed: ' + ', '.join(changes))
    for path, new in changes.items():
        out.write(b'M 100644 inline %s\n' % path.encode())
        data(open(new, 'rb').read())
out.close()
if fi.wait():
    sys.exit('git fast-import failed')
g = ['git', '-C', repo]
subprocess.run(g + ['config', 'core.sparseCheckout', 'true'], check=True)
with open(repo + '/.git/info/sparse-checkout', 'w') as f:
    f.write('/README\n')
subprocess.run(g + ['read-tree', '-mu', 'HEAD'], check=True)
