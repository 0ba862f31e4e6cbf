/* A kernel's function symbols, read from its vmlinux with libelf, for address lookups at
 * translation time. Why libelf and not `nm -n`: the plugin runs inside QEMU, where spawning
 * a tool and parsing its text would be slower and one more thing to fail. */
#ifndef HB_PROFILE_SYMBOLS_H
#define HB_PROFILE_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

struct hb_symbol {
	uint64_t start, end;   /* [start, end) */
	const char *name;
};

struct hb_symtab {
	struct hb_symbol *sym; /* sorted by start, not overlapping */
	size_t n;
	char *names;           /* the names' storage */
	uint64_t lo, hi;       /* [lo, hi): from the first start to the last end */
};

/* Function symbols (STT_FUNC, and untyped symbols of executable sections: the assembly
 * entry points) of the ELF file at path. Of several symbols at one address, a function
 * over an untyped one, a global over a local, then the name without a leading
 * underscore, then the first in byte order: the same choice every time. A symbol without
 * a size ends where the next one starts. 0, or -1 with why (at most why_len bytes). */
int hb_symtab_load(struct hb_symtab *t, const char *path, char *why, size_t why_len);
/* The symbol holding addr, or -1. */
long hb_symtab_find(const struct hb_symtab *t, uint64_t addr);
void hb_symtab_free(struct hb_symtab *t);

#endif
