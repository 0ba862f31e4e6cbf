/* What the guest needs before the first job: loopback up, every CPU online. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "init.h"

/* hackbench -i and other jobs talk to 127.0.0.1: lo must be up. Best effort, because
 * a kernel without networking still runs most jobs. */
void init_bring_up_loopback(void)
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

/* Brings every present but offline CPU online. Under QEMU's icount before 8.1 the harness
 * boots with maxcpus=1 (a second vCPU livelocks during SMP bring-up there, but comes up
 * once the first one's timer is in one-shot mode); elsewhere every CPU is already online
 * and this writes nothing. Returns how many it brought up; failures are notes. */
int init_online_cpus(int result_fd)
{
	DIR *d = opendir("/sys/devices/system/cpu");
	struct dirent *e;
	int up = 0;

	while (d && (e = readdir(d))) {
		char path[300], state = '1';
		int fd;

		if (strncmp(e->d_name, "cpu", 3) || e->d_name[3] < '0' || e->d_name[3] > '9')
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/%s/online", e->d_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0) /* cpu0 has no online file */
			continue;
		if (read(fd, &state, 1) == 1 && state == '0') {
			if (pwrite(fd, "1", 1, 0) == 1)
				up++;
			else
				port_line(result_fd, "note %s could not be brought online: %s", e->d_name,
					  strerror(errno));
		}
		close(fd);
	}
	if (d)
		closedir(d);
	return up;
}
