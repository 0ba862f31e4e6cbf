#include "symbols.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cand {
	uint64_t start, size;
	size_t name_off;
	int rank; /* lower wins among symbols at one address */
};

struct names {
	char *buf;
	size_t len, cap;
};

static size_t names_add(struct names *n, const char *s)
{
	size_t l = strlen(s) + 1, off = n->len;

	if (n->len + l > n->cap) {
		size_t cap = n->cap ? n->cap : 1 << 16;
		while (cap < n->len + l)
			cap *= 2;
		char *b = realloc(n->buf, cap);
		if (!b)
			abort();
		n->buf = b;
		n->cap = cap;
	}
	memcpy(n->buf + n->len, s, l);
	n->len += l;
	return off;
}

static int rank_of(const GElf_Sym *s, const char *name)
{
	int bind = GELF_ST_BIND(s->st_info);
	return (GELF_ST_TYPE(s->st_info) == STT_FUNC ? 0 : 4) + (bind == STB_LOCAL ? 2 : 0) +
	       (name[0] == '_' ? 1 : 0);
}

static const char *g_names; /* for the sort: candidates name offsets into it */

static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return strcmp(g_names + x->name_off, g_names + y->name_off);
}

/* The executable sections' indexes, as a bitmap over the section count. */
static bool *exec_sections(Elf *e, size_t *nsec)
{
	Elf_Scn *scn = NULL;
	bool *exec;

	if (elf_getshdrnum(e, nsec) != 0)
		return NULL;
	exec = calloc(*nsec ? *nsec : 1, sizeof(*exec));
	while (exec && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR))
			exec[elf_ndxscn(scn)] = true;
	}
	return exec;
}

static int collect(Elf *e, struct cand **out, size_t *nout, struct names *names)
{
	Elf_Scn *scn = NULL;
	size_t nsec, cap = 0, n = 0;
	bool *exec = exec_sections(e, &nsec);
	struct cand *c = NULL;

	if (!exec)
		return -1;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;
			int type;
			if (!gelf_getsym(d, (int)i, &s))
				continue;
			type = GELF_ST_TYPE(s.st_info);
			if ((type != STT_FUNC && type != STT_NOTYPE) || s.st_shndx == SHN_UNDEF ||
			    s.st_shndx >= nsec || !exec[s.st_shndx])
				continue;
			name = elf_strptr(e, sh.sh_link, s.st_name);
			if (!name || !*name || name[0] == '$' || !strncmp(name, ".L", 2))
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 4096;
				c = realloc(c, cap * sizeof(*c));
				if (!c)
					abort();
			}
			c[n++] = (struct cand){ .start = s.st_value, .size = s.st_size,
						.name_off = names_add(names, name),
						.rank = rank_of(&s, name) };
		}
	}
	free(exec);
	*out = c;
	*nout = n;
	return 0;
}

int hb_symtab_load(struct hb_symtab *t, const char *path, char *why, size_t why_len)
{
	struct names names = { 0 };
	struct cand *c = NULL;
	size_t n = 0, k = 0;
	Elf *e;
	int fd;

	memset(t, 0, sizeof(*t));
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(why, why_len, "libelf: %s", elf_errmsg(-1));
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, why_len, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || collect(e, &c, &n, &names) < 0) {
		snprintf(why, why_len, "%s: not a readable ELF file (%s)", path, elf_errmsg(-1));
		if (e)
			elf_end(e);
		close(fd);
		free(names.buf);
		return -1;
	}
	elf_end(e);
	close(fd);
	if (!n) {
		snprintf(why, why_len, "%s has no function symbols (stripped?)", path);
		free(c);
		free(names.buf);
		return -1;
	}
	g_names = names.buf;
	qsort(c, n, sizeof(*c), cmp_cand);
	t->sym = calloc(n, sizeof(*t->sym));
	if (!t->sym)
		abort();
	for (size_t i = 0; i < n; i++) {
		if (k && t->sym[k - 1].start == c[i].start)
			continue; /* an alias: the first in sort order won */
		t->sym[k++] = (struct hb_symbol){ .start = c[i].start,
						  .end = c[i].size ? c[i].start + c[i].size : 0,
						  .name = (const char *)(uintptr_t)c[i].name_off };
	}
	for (size_t i = 0; i < k; i++) {
		uint64_t next = i + 1 < k ? t->sym[i + 1].start : UINT64_MAX;
		if (!t->sym[i].end || t->sym[i].end > next)
			t->sym[i].end = next == UINT64_MAX ? t->sym[i].start + 1 : next;
		t->sym[i].name = names.buf + (uintptr_t)t->sym[i].name;
	}
	free(c);
	t->n = k;
	t->names = names.buf;
	t->lo = t->sym[0].start;
	t->hi = t->sym[k - 1].end;
	return 0;
}

long hb_symtab_find(const struct hb_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;

	if (!t->n || addr < t->lo || addr >= t->hi)
		return -1;
	while (hi - lo > 1) { /* the last symbol starting at or below addr */
		size_t mid = lo + (hi - lo) / 2;
		if (t->sym[mid].start <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return addr < t->sym[lo].end ? (long)lo : -1;
}

void hb_symtab_free(struct hb_symtab *t)
{
	free(t->sym);
	free(t->names);
	memset(t, 0, sizeof(*t));
}
