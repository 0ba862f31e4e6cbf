#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

double helper_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double helper_tv_s(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec / 1e6; }

void helper_self_cpu(double *user_s, double *sys_s)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*user_s = helper_tv_s(ru.ru_utime);
	*sys_s = helper_tv_s(ru.ru_stime);
}

int helper_system_cpu(struct helper_cpu_times *t)
{
	unsigned long long v[7] = { 0 };
	double hz = (double)sysconf(_SC_CLK_TCK);
	char *text = helper_read_file("/proc/stat");
	int ok;

	memset(t, 0, sizeof(*t));
	if (!text)
		return -1;
	ok = sscanf(text, "cpu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		    &v[4], &v[5], &v[6]) == 7;
	free(text);
	if (!ok)
		return -1;
	t->user_s = (double)(v[0] + v[1]) / hz;
	t->sys_s = (double)(v[2] + v[5] + v[6]) / hz;
	t->idle_s = (double)(v[3] + v[4]) / hz;
	t->iowait_s = (double)v[4] / hz;
	return 0;
}

long long helper_disk_read_sectors(void)
{
	char *text = helper_read_file("/proc/diskstats"), *line, *save = NULL;
	long long total = 0;

	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[64], path[96];
		unsigned long long reads, merged, sectors;

		if (sscanf(line, " %*u %*u %63s %llu %llu %llu", name, &reads, &merged, &sectors) != 4)
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s", name);
		if (access(path, F_OK) == 0)
			total += (long long)sectors;
	}
	free(text);
	return total;
}

char *helper_read_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 4096, used = 0;
	char *buf;
	ssize_t n;

	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	while (buf && (n = read(fd, buf + used, cap - used - 1)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		used += (size_t)n;
		if (cap - used < 2) {
			char *bigger = realloc(buf, cap * 2);
			if (!bigger)
				free(buf);
			buf = bigger;
			cap *= 2;
		}
	}
	close(fd);
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	buf[used] = '\0';
	return buf;
}

long long helper_meminfo_value(const char *meminfo, const char *key)
{
	size_t klen = strlen(key);

	for (const char *line = meminfo; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, key, klen) && line[klen] == ':')
			return strtoll(line + klen + 1, NULL, 10);
	}
	return -1;
}

int helper_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(text);
	ssize_t n;
	int write_errno;

	if (fd < 0)
		return -1;
	n = write(fd, text, len);
	write_errno = errno;
	if (close(fd) < 0 && n >= 0)
		return -1;
	if (n < 0) {
		errno = write_errno;
		return -1;
	}
	if ((size_t)n != len) {
		errno = EIO;
		return -1;
	}
	return 0;
}

void helper_die(int status, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

long helper_parse_long(const char *option, const char *value, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno || end == value || *end || v < min || v > max)
		helper_die(HELPER_EXIT_USAGE, "%s: bad value '%s' (accepted: an integer from %ld to %ld)",
			   option, value, min, max);
	return v;
}
