// SPDX-License-Identifier: GPL-2.0
/*
 * msealcheck: are mseal() seals enforced, and is there a pre-walk?
 *
 * usage: msealcheck enforced|unenforced|prewalk
 *  1. mmap 4 read-write anonymous pages and mseal() pages 2-3; mmap one
 *     read-only anonymous page and mseal() it (syscall 462 on x86-64).
 *  2. mprotect(PROT_READ) over pages 0-3: 6.12 changes pages 0-1 before
 *     its walk meets the seal and fails (no pre-walk); the 6.10 design
 *     refuses before changing anything.
 *  3. mprotect(PROT_READ|PROT_WRITE) on pages 2-3, madvise(MADV_DONTNEED)
 *     on the sealed read-only page, munmap() of pages 2-3.
 * "enforced" expects EPERM everywhere and pages 0-1 changed by step 2;
 * "prewalk" expects EPERM everywhere and pages 0-1 unchanged;
 * "unenforced" expects every call to succeed.
 * Output: one line per call with its result; exit 0 when all match.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_mseal
#define __NR_mseal 462
#endif

static long pg;
static int fails;

static int mseal_(void *a, size_t len)
{
	return syscall(__NR_mseal, a, len, 0) ? errno : 0;
}

static void expect(const char *what, int err, int want)
{
	printf("%-36s %s (want %s)\n", what, err ? strerror(err) : "ok",
	       want ? strerror(want) : "ok");
	fails += err != want;
}

/* permissions of the mapping holding addr, from /proc/self/maps */
static void perms(void *addr, char out[5])
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long lo, hi, a = (unsigned long)addr;

	strcpy(out, "????");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, out) == 3 && a >= lo && a < hi)
			break;
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	int unenf, prewalk, e;
	char *p, *r, pm[5];

	if (argc != 2) { fprintf(stderr, "usage: msealcheck enforced|unenforced|prewalk\n"); return 2; }
	unenf = !strcmp(argv[1], "unenforced");
	prewalk = !strcmp(argv[1], "prewalk");
	pg = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);

	p = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	r = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || r == MAP_FAILED) { perror("mmap"); return 2; }
	memset(p, 1, 4 * pg);

	expect("mseal(pages 2-3)", mseal_(p + 2 * pg, 2 * pg), 0);
	expect("mseal(read-only page)", mseal_(r, pg), 0);

	/* step 2 */
	e = mprotect(p, 4 * pg, PROT_READ) ? errno : 0;
	expect("mprotect(pages 0-3, PROT_READ)", e, unenf ? 0 : EPERM);
	perms(p, pm);
	printf("%-36s %s (want %s)\n", "pages 0-1 after that", pm,
	       unenf ? "r--p" : prewalk ? "rw-p" : "r--p");
	if (strcmp(pm, unenf ? "r--p" : prewalk ? "rw-p" : "r--p"))
		fails++;

	e = mprotect(p + 2 * pg, 2 * pg, PROT_READ | PROT_WRITE) ? errno : 0;
	expect("mprotect(pages 2-3, PROT_RW)", e, unenf ? 0 : EPERM);
	e = madvise(r, pg, MADV_DONTNEED) ? errno : 0;
	expect("madvise(ro page, DONTNEED)", e, unenf ? 0 : EPERM);
	e = munmap(p + 2 * pg, 2 * pg) ? errno : 0;
	expect("munmap(pages 2-3)", e, unenf ? 0 : EPERM);

	printf("msealcheck %s: %s\n", argv[1], fails ? "FAIL" : "OK");
	return fails ? 1 : 0;
}
