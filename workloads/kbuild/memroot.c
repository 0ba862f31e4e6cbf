/* The in-memory root of hb-kbuild (memroot.h says why). */
#include "memroot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"

#define MEMROOT_MARK "/run/hb-kbuild-root.ready"
#define ELF_LOADER "/lib64/ld-linux-x86-64.so.2"
#define OUTPUT_MAX (1 << 20) /* what --list or gcc -print-* prints: a few KiB */

/* What a kernel build runs (make, kbuild's shell snippets and scripts, gcc, binutils). */
static const char *const programs[] = {
	"sh", "dash", "bash", "make", "gcc", "as", "ld", "ld.bfd", "ar", "nm", "objcopy",
	"objdump", "strip", "readelf", "cat", "rm", "mkdir", "cp", "mv", "ln", "cmp", "diff",
	"grep", "sed", "awk", "mawk", "head", "tail", "wc", "sort", "uniq", "xargs", "uname",
	"getconf", "expr", "dirname", "basename", "whoami", "bc", "pkg-config", "git", "touch",
	"printf", "echo", "tr", "cut", "env", "true", "false", "test", "date", "id", "find",
	"ls", "tee", "chmod", "stat", "mktemp", "sleep", "seq", "realpath", "readlink", "perl",
	NULL,
};
/* Directories and files besides: the C locale, the loader's cache and the user database
 * some scripts read. The host headers come from the prepared tree's dependency records
 * (mirror_dependencies), not all of /usr/include: 175 of its 9,155 files here, and each
 * file copied over virtiofs costs FUSE round trips that dominated the setup. */
static const char *const data[] = {
	"/usr/lib/locale/C.utf8", "/etc/ld.so.cache", "/etc/passwd", "/etc/group",
	"/etc/nsswitch.conf", NULL,
};
/* Host paths a dependency record may name: make stats each one when it checks the prepared
 * host tools (fixdep, objtool, ...), so each must exist in the root with its timestamps. */
#define HOST_DEPS_PREFIX "/usr/"
#define DEPS_FILE_MAX (16 << 20) /* kbuild's .cmd files are a few KiB to a few hundred */
/* gcc's private files, by its own -print-* answers. */
static const char *const gcc_files[] = { "-print-prog-name=cc1", "-print-file-name=include",
					  "-print-file-name=liblto_plugin.so", NULL };
/* Top-level symlinks of a merged-/usr root (/bin -> usr/bin). */
static const char *const root_links[] = { "/bin", "/sbin", "/lib", "/lib64", NULL };
/* Read by every make through the top-level Kbuild's filechk rules, which regenerate
 * include/generated/{bounds,timeconst}.h each time (found with mincore: the files under the
 * tree that had no page cached before a first rep and had some after). */
static const char *const tree_files[] = { "kernel/time/timeconst.bc", "kernel/bounds.c", NULL };
/* The tree's parts every build reads, read into the page cache (targets are added). */
static const char *const tree_reads[] = { "include", "arch/x86", "scripts", "tools/include",
					   "tools/objtool", "tools/build", "tools/lib", "tools/arch/x86",
					   "tools/scripts", NULL };

static void die_errno(const char *what, const char *path)
{
	helper_die(HELPER_EXIT_FAIL, "in-memory build root: %s %s: %s", what, path, strerror(errno));
}

/* A path into a PATH_MAX buffer; one too long for it ends the helper. */
__attribute__((format(printf, 2, 3))) static void pathf(char *out, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, PATH_MAX, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= PATH_MAX)
		helper_die(HELPER_EXIT_FAIL, "in-memory build root: a path longer than %d bytes", PATH_MAX);
}

/* Runs argv (no shell) and returns its stdout (at most OUTPUT_MAX), or NULL when it
 * cannot run or exits non-zero. */
static char *capture(char *const argv[])
{
	int fds[2];
	char *out = calloc(1, OUTPUT_MAX + 1);
	size_t n = 0;
	ssize_t got;
	int status;
	pid_t pid;

	if (!out || pipe(fds) < 0)
		helper_die(HELPER_EXIT_FAIL, "out of memory or pipes");
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(fds[1], 1);
		dup2(null, 2);
		close(fds[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	while (pid > 0 && n < OUTPUT_MAX && (got = read(fds[0], out + n, OUTPUT_MAX - n)) > 0)
		n += (size_t)got;
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		free(out);
		return NULL;
	}
	return out;
}

/* A directory with everything in it (cp -a keeps modes, links and times). */
static void copy_dir(const char *from, const char *to)
{
	char *argv[] = { "/bin/cp", "-a", (char *)from, (char *)to, NULL };
	char *out = capture(argv);

	if (!out)
		helper_die(HELPER_EXIT_FAIL, "in-memory build root: cannot copy %s", from);
	free(out);
}

static int write_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno != EINTR)
			return -1;
		if (w > 0) {
			buf += w;
			n -= (size_t)w;
		}
	}
	return 0;
}

/* A regular file's content, mode and times: make compares the times. Done here rather than
 * by cp, whose fork and exec per file cost more than the copy under TCG. */
static void copy_regular(const char *from, const char *to, const struct stat *st)
{
	int in = open(from, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	int out = in < 0 ? -1 : open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	char buf[1 << 16];
	ssize_t n = 0;

	if (in < 0 || out < 0)
		die_errno("copy", from);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write_all(out, buf, (size_t)n) < 0)
			die_errno("write", to);
	if (n < 0 || fchmod(out, st->st_mode & 07777) < 0 ||
	    futimens(out, (const struct timespec[]){ st->st_atim, st->st_mtim }) < 0)
		die_errno("copy", from);
	close(in);
	close(out);
}

/* One file, symlink or directory (with its content) at to. */
static void copy_file(const char *from, const char *to)
{
	char target[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (lstat(from, &st) < 0)
		die_errno("lstat", from);
	if (S_ISREG(st.st_mode)) {
		copy_regular(from, to, &st);
	} else if (S_ISLNK(st.st_mode)) {
		n = readlink(from, target, sizeof(target) - 1);
		if (n < 0)
			die_errno("readlink", from);
		target[n] = 0;
		if (symlink(target, to) < 0)
			die_errno("symlink", to);
	} else {
		copy_dir(from, to);
	}
}

static void mirror(const char *path);

/* The target of the symlink at path, as an absolute path. */
static void link_target(const char *path, char *out)
{
	char target[PATH_MAX], dir[PATH_MAX];
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	if (n < 0)
		die_errno("readlink", path);
	target[n] = 0;
	pathf(dir, "%s", path);
	*strrchr(dir, '/') = 0;
	if (target[0] == '/')
		pathf(out, "%s", target);
	else
		pathf(out, "%s/%s", dir, target);
}

/* Recreates path inside the root with every symlink on the way (so /bin/sh, a link to
 * dash through /bin -> usr/bin, resolves there as here); a directory's content is not
 * copied, a file's is. */
static void mirror(const char *path)
{
	char prefix[PATH_MAX], inside[PATH_MAX], target[PATH_MAX];
	struct stat st;

	for (const char *p = path + 1;; p++) {
		if (*p && *p != '/')
			continue;
		pathf(prefix, "%.*s", (int)(p - path), path);
		pathf(inside, MEMROOT_DIR "%s", prefix);
		if (lstat(prefix, &st) < 0)
			die_errno("lstat", prefix);
		if (S_ISLNK(st.st_mode)) {
			if (lstat(inside, &st) < 0)
				copy_file(prefix, inside);
			link_target(prefix, target);
			pathf(prefix, "%s%s", target, p);
			mirror(prefix); /* the rest of the path, from the link's target */
			return;
		}
		if (S_ISDIR(st.st_mode)) {
			if (mkdir(inside, st.st_mode & 07777) < 0 && errno != EEXIST)
				die_errno("mkdir", inside);
		} else if (lstat(inside, &st) < 0) {
			copy_file(prefix, inside);
		}
		if (!*p)
			return;
	}
}

/* A directory with its content, or a file, at its own path inside the root. */
static void mirror_tree(const char *path)
{
	char inside[PATH_MAX], from[PATH_MAX];
	struct stat st;

	mirror(path);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		pathf(from, "%s/.", path);
		pathf(inside, MEMROOT_DIR "%s", path);
		copy_dir(from, inside);
	}
}

static void mirror_program(const char *name)
{
	static const char *const dirs[] = { "/usr/bin", "/usr/sbin", "/bin", "/sbin", NULL };
	char path[PATH_MAX];

	for (size_t i = 0; dirs[i]; i++) {
		pathf(path, "%s/%s", dirs[i], name);
		if (access(path, X_OK) == 0) {
			mirror(path);
			return;
		}
	}
}

static void mirror_gcc_files(void)
{
	for (size_t i = 0; gcc_files[i]; i++) {
		char *argv[] = { "/usr/bin/gcc", (char *)gcc_files[i], NULL };
		char *out = capture(argv);
		if (out && out[0] == '/') {
			out[strcspn(out, "\n")] = 0;
			if (access(out, F_OK) == 0)
				mirror_tree(out);
		}
		free(out);
	}
}

/* The libraries of every dynamic executable under a directory (as the loader finds them
 * outside the root), mirrored: the closure of what the make can exec. */
static int add_libraries(const char *path, const struct stat *st, int type, struct FTW *f)
{
	char magic[4] = { 0 }, *out, *save = NULL;
	/* A copy in the root is asked about at its original path. */
	const char *orig = strncmp(path, MEMROOT_DIR "/", strlen(MEMROOT_DIR) + 1) ? path
		: path + strlen(MEMROOT_DIR);
	int fd;

	(void)f;
	if (type != FTW_F || !(st->st_mode & 0111) || !S_ISREG(st->st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, magic, 4) != 4 || memcmp(magic, "\177ELF", 4)) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	close(fd);
	out = capture((char *const[]){ ELF_LOADER, "--list", (char *)orig, NULL });
	for (char *tok = out ? strtok_r(out, " \t\n", &save) : NULL; tok; tok = strtok_r(NULL, " \t\n", &save))
		if (tok[0] == '/' && access(tok, F_OK) == 0)
			mirror(tok);
	free(out);
	return 0;
}

static void mirror_libraries(const char *dir)
{
	if (nftw(dir, add_libraries, 32, FTW_PHYS) < 0)
		die_errno("walk", dir);
}

/* Is path a kbuild dependency record: .NAME.cmd (fixdep's output) or NAME.d (gcc -MD)? */
static bool is_deps_file(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	return (base[0] == '.' && n > 4 && !strcmp(base + n - 4, ".cmd")) ||
	       (n > 2 && !strcmp(base + n - 2, ".d"));
}

static bool is_path_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr("_./+-", c);
}

/* Mirrors every existing host file under HOST_DEPS_PREFIX that a record names. */
static int add_dependencies(const char *path, const struct stat *st, int type, struct FTW *f)
{
	char name[PATH_MAX], *text;
	(void)f;

	if (type != FTW_F || !S_ISREG(st->st_mode) || st->st_size > DEPS_FILE_MAX || !is_deps_file(path))
		return 0;
	text = helper_read_file(path);
	for (char *p = text; p && (p = strstr(p, HOST_DEPS_PREFIX));) {
		size_t n = 0;
		bool starts = p == text || !is_path_char(p[-1]);
		while (is_path_char(p[n]))
			n++;
		if (starts && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = 0;
			if (access(name, F_OK) == 0)
				mirror(name);
		}
		p += n ? n : 1;
	}
	free(text);
	return 0;
}

static void mirror_dependencies(const char *obj)
{
	if (nftw(obj, add_dependencies, 32, FTW_PHYS) < 0)
		die_errno("walk", obj);
}

static void bind_into_root(const char *path)
{
	char inside[PATH_MAX];

	pathf(inside, MEMROOT_DIR "%s", path);
	mirror(path);
	if (mount(path, inside, NULL, MS_BIND | MS_REC, NULL) < 0)
		die_errno("bind", path);
}

static void mount_at(const char *fstype, const char *path)
{
	char inside[PATH_MAX];

	pathf(inside, MEMROOT_DIR "%s", path);
	if (mkdir(inside, 0755) < 0 && errno != EEXIST)
		die_errno("mkdir", inside);
	if (mount(fstype, inside, fstype, MS_NOSUID | MS_NODEV, NULL) < 0)
		die_errno("mount", inside);
}

/* Reads a file's content (into the page cache) and discards it. */
static int read_entry(const char *path, const struct stat *st, int type, struct FTW *f)
{
	char buf[1 << 16];
	int fd;

	(void)f;
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0) {
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
	}
	return 0;
}

/* The file at path, read as read_entry does (not through a symlink). */
static void read_path(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0)
		read_entry(path, &st, FTW_F, NULL);
}

#define SOURCE_MAX (4 << 20) /* a source file whose includes are scanned: the largest are ~1 MiB */

/* Reads a source (into the page cache, as read_entry would) and the files it includes by
 * a path with "..", which leave its directory (kernel/sched/core.c:
 * "../workqueue_internal.h", "../../io_uring/io-wq.h"). */
static void read_source_and_includes(const char *path)
{
	char *text = helper_read_file(path), inc[PATH_MAX], dir[PATH_MAX];
	const char *p = text, *slash = strrchr(path, '/');

	if (!text || !slash || strlen(text) > SOURCE_MAX) {
		free(text);
		return;
	}
	pathf(dir, "%.*s", (int)(slash - path), path);
	while ((p = strstr(p, "#include \"../"))) {
		const char *name = p + strlen("#include \"");
		size_t len = strcspn(name, "\"\n");

		p = name + len;
		if (name[len] != '"')
			continue;
		int n = snprintf(inc, sizeof(inc), "%s/%.*s", dir, (int)len, name);
		if (n > 0 && (size_t)n < sizeof(inc))
			read_path(inc);
	}
	free(text);
}

static bool is_source(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && path[n - 2] == '.' && (path[n - 1] == 'c' || path[n - 1] == 'h');
}

/* A target directory's files, and what its sources include from outside it. */
static int read_target_entry(const char *path, const struct stat *st, int type, struct FTW *f)
{
	if (type == FTW_F && S_ISREG(st->st_mode) && is_source(path))
		read_source_and_includes(path);
	else
		read_entry(path, st, type, f);
	return 0;
}

static int stat_only(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)path, (void)st, (void)type, (void)f;
	return 0; /* nftw has already read the directory and the inode */
}

/* The files directly in dir (not its subdirectories). */
static void read_dir_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];

	while (d && (e = readdir(d))) {
		pathf(path, "%s/%s", dir, e->d_name);
		read_path(path);
	}
	if (d)
		closedir(d);
}

/* A part of the tree, and the files directly in each directory above it up to the top:
 * the Makefiles kbuild reads on its way down (kernel/Makefile for kernel/sched/,
 * tools/Makefile for tools/objtool) and the headers beside them. */
static void read_part(const char *tree, const char *part, bool with_includes)
{
	char path[PATH_MAX], *slash;

	pathf(path, "%s/%s", tree, part);
	/* a part this tree lacks: nothing to read */
	nftw(path, with_includes ? read_target_entry : read_entry, 32, FTW_PHYS);
	while ((slash = strrchr(path, '/')) && (size_t)(slash - path) >= strlen(tree)) {
		*slash = '\0';
		read_dir_files(path);
	}
}

/* Every directory and inode of the tree (make stats far more than it reads), then the
 * content of what a build reads: the shared parts, the targets' directories with what
 * their sources include from outside them, the directories above those, the files the
 * top-level Kbuild regenerates from and the top-level files. A target outside a
 * directory (vmlinux, bzImage; or none: make's default) reads the whole tree. */
static void warm_tree(const char *tree, char **targets, int ntargets)
{
	bool whole = ntargets == 0;

	nftw(tree, stat_only, 64, FTW_PHYS);
	for (int i = 0; i < ntargets && !whole; i++) {
		char dir[PATH_MAX], *slash;
		pathf(dir, "%s", targets[i]);
		slash = strrchr(dir, '/');
		if (!slash) {
			whole = true;
			break;
		}
		*slash = 0;
		read_part(tree, dir, true);
	}
	if (whole) {
		read_part(tree, "", false);
		return;
	}
	for (size_t i = 0; tree_reads[i]; i++)
		read_part(tree, tree_reads[i], false);
	for (size_t i = 0; tree_files[i]; i++) {
		char path[PATH_MAX];

		pathf(path, "%s/%s", tree, tree_files[i]);
		read_path(path);
	}
	read_dir_files(tree);
}

void memroot_prepare(const char *tree, const char *obj, char **targets, int ntargets)
{
	if (access(MEMROOT_MARK, F_OK) == 0)
		return;
	if (mkdir(MEMROOT_DIR, 0755) < 0 && errno != EEXIST)
		die_errno("mkdir", MEMROOT_DIR);
	if (mount("tmpfs", MEMROOT_DIR, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") < 0)
		die_errno("mount tmpfs on", MEMROOT_DIR);
	for (size_t i = 0; root_links[i]; i++)
		if (access(root_links[i], F_OK) == 0)
			mirror(root_links[i]);
	for (size_t i = 0; programs[i]; i++)
		mirror_program(programs[i]);
	mirror_gcc_files();
	for (size_t i = 0; data[i]; i++)
		if (access(data[i], F_OK) == 0)
			mirror_tree(data[i]);
	mirror_dependencies(obj);
	mirror_libraries(MEMROOT_DIR "/usr");
	mirror_libraries(obj);
	mount_at("proc", "/proc"); /* first: the binds below may lie under /tmp */
	mount_at("tmpfs", "/tmp");
	bind_into_root(tree);
	bind_into_root(obj);
	bind_into_root("/dev");
	warm_tree(tree, targets, ntargets);
	close(open(MEMROOT_MARK, O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
}

int memroot_enter(void)
{
	return chroot(MEMROOT_DIR) == 0 && chdir("/") == 0 ? 0 : -1;
}
