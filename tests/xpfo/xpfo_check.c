/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xpfo_check: the guest side of the XPFO probe (kernel-configs/modules/xpfo_probe).
 *
 * Writes a value into an anonymous page of its own, then asks
 * /proc/xpfo_probe to check that page: (a) the direct-map alias is not
 * present under XPFO (present without it), (b) kmap maps it and kunmap
 * unmaps it, (c) with the global flush a stale TLB entry on CPU 1 is gone
 * after the kunmap, (d) with the deferred flush the stale entry is gone
 * once CPU 1 has switched to a user task. Prints the module's lines
 * ("xpfo_check NAME pass|fail|skip REASON") and its own, and exits 1 if
 * any check failed, 2 on a usage or setup error.
 *
 * Built by meson (tests/xpfo/meson.build) as build/tests/xpfo/xpfo_check; by hand:
 * cc -O2 -Wall -static -o xpfo_check xpfo_check.c
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROBE "/proc/xpfo_probe"

static int failed;

static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Send one command, print the answer; count "fail" lines. */
static int probe(const char *fmt, ...)
{
	char cmd[128], out[4096];
	va_list ap;
	ssize_t n;
	int fd;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	fd = open(PROBE, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "xpfo_check: %s: %s (is xpfo_probe.ko loaded?)\n", PROBE, strerror(errno));
		return -1;
	}
	if (write(fd, cmd, strlen(cmd)) < 0) {
		fprintf(stderr, "xpfo_check: '%s': %s\n", cmd, strerror(errno));
		close(fd);
		return -1;
	}
	lseek(fd, 0, SEEK_SET);
	n = read(fd, out, sizeof(out) - 1);
	close(fd);
	if (n < 0)
		return -1;
	out[n] = '\0';
	fputs(out, stdout);
	for (char *p = out; (p = strstr(p, " fail ")); p++)
		failed++;
	fflush(stdout);
	return 0;
}

static long long vmstat(const char *name)
{
	char key[64];
	long long v, found = -1;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &v) == 2)
		if (!strcmp(key, name))
			found = v;
	fclose(f);
	return found;
}

/* A user task on @cpu: it sleeps a few times, so @cpu switches to it. */
static void run_user_task_on(int cpu)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct timespec ts = { 0, 2000000 };

		if (pin_to(cpu))
			_exit(3);
		for (int i = 0; i < 5; i++)
			nanosleep(&ts, NULL);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

/*
 * (e) The kernel reaches another process's user page through kmap in
 * /proc/PID/mem and ptrace: both must read what the child wrote (and
 * ptrace must write), with no oops. Needs no module.
 */
static void check_remote_access(void)
{
	uint64_t want = 0x6d656d2d78706671ULL, got = 0;
	volatile uint64_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char path[64];
	long word;
	pid_t pid;
	int fd, st;

	if (p == MAP_FAILED) {
		printf("xpfo_check e_procmem skip mmap: %s\n", strerror(errno));
		return;
	}
	p[1] = 0;
	pid = fork();
	if (pid == 0) {
		/* A private page of the child's own, allocated here. */
		volatile uint64_t *q = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		q[0] = want;
		p[0] = (uint64_t)(uintptr_t)q;
		__atomic_store_n(&p[1], 1, __ATOMIC_RELEASE);
		for (;;)
			pause();
	}
	while (!__atomic_load_n(&p[1], __ATOMIC_ACQUIRE))
		usleep(1000);
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0 || pread(fd, &got, sizeof(got), (off_t)p[0]) != sizeof(got)) {
		printf("xpfo_check e_procmem fail %s: %s\n", path, strerror(errno));
		failed++;
	} else {
		printf("xpfo_check e_procmem %s read the child's page through %s: %s\n",
		       got == want ? "pass" : "fail", path, got == want ? "value matches" : "wrong value");
		failed += got != want;
	}
	if (fd >= 0)
		close(fd);
	if (ptrace(PTRACE_ATTACH, pid, 0, 0) || waitpid(pid, &st, 0) != pid) {
		printf("xpfo_check e_ptrace skip PTRACE_ATTACH: %s\n", strerror(errno));
	} else {
		errno = 0;
		word = ptrace(PTRACE_PEEKDATA, pid, (void *)(uintptr_t)p[0], 0);
		int ok = !errno && (uint64_t)word == want;

		ok = ok && !ptrace(PTRACE_POKEDATA, pid, (void *)(uintptr_t)p[0], (void *)~want);
		errno = 0;
		word = ptrace(PTRACE_PEEKDATA, pid, (void *)(uintptr_t)p[0], 0);
		ok = ok && !errno && (uint64_t)word == ~want;
		printf("xpfo_check e_ptrace %s PEEKDATA, POKEDATA, PEEKDATA of the child's page\n",
		       ok ? "pass" : "fail");
		failed += !ok;
		ptrace(PTRACE_DETACH, pid, 0, 0);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	munmap((void *)p, 4096);
}

int main(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t value;
	volatile uint64_t *page;

	/* Everything but the user task of (d) runs on CPU 0; CPU 1 is "the other CPU". */
	if (ncpu >= 2 && pin_to(0)) {
		perror("xpfo_check: sched_setaffinity");
		return 2;
	}
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		perror("xpfo_check: mmap");
		return 2;
	}
	value = 0x5846504f00000000ULL ^ ((uint64_t)getpid() << 8) ^ (uint64_t)time(NULL);
	page[0] = value; /* the first touch: the page is allocated for user space here */

	if (probe("info"))
		return 2;
	if (probe("check %lx %llx", (unsigned long)page, (unsigned long long)value))
		return 2;
	if (ncpu < 2) {
		printf("xpfo_check c_global skip needs 2 CPUs (have %ld)\n", ncpu);
		printf("xpfo_check d_deferred skip needs 2 CPUs (have %ld)\n", ncpu);
	} else {
		long long before, after;

		if (probe("stale %lx %llx 1", (unsigned long)page, (unsigned long long)value))
			return 2;
		before = vmstat("xpfo_flush_deferred");
		run_user_task_on(1);
		after = vmstat("xpfo_flush_deferred");
		if (probe("reread %lx %llx 1", (unsigned long)page, (unsigned long long)value))
			return 2;
		if (before < 0)
			printf("xpfo_check d_counter skip no xpfo_flush_deferred in /proc/vmstat\n");
		else
			printf("xpfo_check d_counter %s xpfo_flush_deferred %lld -> %lld around the user task on cpu1\n",
			       after > before ? "pass" : "skip", before, after);
	}
	check_remote_access();
	printf("xpfo_check summary %s %d failed\n", failed ? "fail" : "pass", failed);
	return failed ? 1 : 0;
}
