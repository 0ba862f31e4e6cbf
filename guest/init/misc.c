/* Small helpers of the guest init. */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "init.h"

void set_why(char why[INIT_WHY_MAX], int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(why, INIT_WHY_MAX, fmt, ap);
	va_end(ap);
	if (err && n >= 0 && n < INIT_WHY_MAX)
		snprintf(why + n, INIT_WHY_MAX - (size_t)n, ": %s", strerror(err));
}

/* The console is only a log for humans reading console.log; results never go here. */
void console_msg(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n = snprintf(line, sizeof(line), "hardbench-init: ");

	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(line) - 1)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	write_all(2, line, (size_t)n);
}

/* hackbench -i and other jobs talk to 127.0.0.1: lo must be up. Best effort, because
 * a kernel without networking still runs most jobs. */
void bring_up_loopback(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
}
