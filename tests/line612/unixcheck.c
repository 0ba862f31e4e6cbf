// SPDX-License-Identifier: GPL-2.0
/*
 * unixcheck: AF_UNIX message integrity.
 *
 * For each of 9 sizes from 1 B to 200 000 B, over a SOCK_STREAM and a
 * SOCK_DGRAM socketpair: a child sends 64 messages, each filled from a
 * PRNG seeded by (size, index); the parent first peeks each message
 * (MSG_PEEK) and then reads it, and compares both with what was sent.
 * The sizes cover skbs with only a linear head and skbs with a head plus
 * page frags (above SKB_MAX_ALLOC for dgram, above SKB_MAX_HEAD(0) for
 * stream).  Output: one line per (type, size) and "unixcheck: N/18 OK".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define NMSG 64
static const size_t sizes[] = { 1, 100, 1000, 3000, 4096, 10000, 40000, 100000, 200000 };

static void fill(unsigned char *b, size_t n, size_t size, int idx)
{
	uint64_t x = size * 1000003u + idx * 7919u + 1;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		b[i] = (unsigned char)x;
	}
}

static int readall(int fd, unsigned char *b, size_t n, int flags)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = recv(fd, b + got, n - got, flags);

		if (r <= 0)
			return -1;
		if (flags & MSG_PEEK)	/* stream peek: may return less; retry whole */
			return r == (ssize_t)n ? 0 : 1;
		got += r;
	}
	return 0;
}

static int run(int type, size_t size)
{
	int sv[2], bad = 0, peekbad = 0, i, st;
	unsigned char *want = malloc(size), *got = malloc(size);
	pid_t pid;
	int sndbuf = 4 << 20;

	if (socketpair(AF_UNIX, type, 0, sv)) { perror("socketpair"); exit(2); }
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &sndbuf, sizeof(sndbuf));
	pid = fork();
	if (pid == 0) {
		close(sv[1]);
		for (i = 0; i < NMSG; i++) {
			fill(want, size, size, i);
			size_t off = 0;
			while (off < size) {
				ssize_t w = send(sv[0], want + off, size - off, 0);
				if (w < 0) { perror("send"); _exit(1); }
				off += w;
				if (type == SOCK_DGRAM && (size_t)w != size) _exit(1);
			}
		}
		_exit(0);
	}
	close(sv[0]);
	for (i = 0; i < NMSG; i++) {
		fill(want, size, size, i);
		memset(got, 0, size);
		if (type == SOCK_DGRAM) {
			if (recv(sv[1], got, size, MSG_PEEK) != (ssize_t)size || memcmp(got, want, size))
				peekbad++;
			memset(got, 0, size);
			if (recv(sv[1], got, size, 0) != (ssize_t)size || memcmp(got, want, size))
				bad++;
		} else {
			int pr = readall(sv[1], got, size, MSG_PEEK);
			/* a short stream peek is legal; compare what was peeked */
			if (pr < 0 || memcmp(got, want, pr == 0 ? size : 1))
				peekbad++;
			memset(got, 0, size);
			if (readall(sv[1], got, size, 0) || memcmp(got, want, size))
				bad++;
		}
	}
	waitpid(pid, &st, 0);
	close(sv[1]);
	free(want); free(got);
	printf("%s size=%zu msgs=%d bad=%d peek_bad=%d child=%d\n",
	       type == SOCK_DGRAM ? "dgram " : "stream", size, NMSG, bad, peekbad,
	       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return !bad && !peekbad && WIFEXITED(st) && !WEXITSTATUS(st);
}

int main(void)
{
	int ok = 0, n = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int t = 0; t < 2; t++)
		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++, n++)
			ok += run(t ? SOCK_DGRAM : SOCK_STREAM, sizes[s]);
	printf("unixcheck: %d/%d OK\n", ok, n);
	return ok == n ? 0 : 1;
}
