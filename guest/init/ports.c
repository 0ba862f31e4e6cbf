/* The virtio-serial ports to the host. Without udev there are no /dev/virtio-ports/NAME
 * links, so the ports are found by the names QEMU gave them in sysfs. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "helper.h"
#include "init.h"

#define PORTS_CLASS_DIR "/sys/class/virtio-ports"
/* The host sends port names after the driver probes; give it a moment under TCG. */
#define PORTS_WAIT_MS 5000
#define PORTS_POLL_MS 20

void port_line(int fd, const char *fmt, ...)
{
	char line[HB_RESULT_LINE_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	init_write_all(fd, line, (size_t)n);
}

void port_frame(int fd, char stream, int job, int rep, const char *buf, size_t len)
{
	char head[64];
	int n = snprintf(head, sizeof(head), HB_FRAME_HEAD, stream, job, rep, len);

	init_write_all(fd, head, (size_t)n);
	init_write_all(fd, buf, len);
}

/* Opens /dev/<dev> for the port whose sysfs name is wanted. */
static int open_named_port(const char *wanted)
{
	DIR *d = opendir(PORTS_CLASS_DIR);
	struct dirent *e;
	int fd = -1;

	if (!d)
		return -1;
	while (fd < 0 && (e = readdir(d))) {
		char path[300];
		char *name;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), PORTS_CLASS_DIR "/%s/name", e->d_name);
		name = helper_read_file(path);
		if (name) {
			name[strcspn(name, "\n")] = '\0';
			if (!strcmp(name, wanted)) {
				snprintf(path, sizeof(path), "/dev/%s", e->d_name);
				fd = open(path, O_RDWR | O_CLOEXEC);
			}
			free(name);
		}
	}
	closedir(d);
	return fd;
}

int ports_open(struct ports *p, char why[INIT_WHY_MAX])
{
	const struct timespec pause = { 0, PORTS_POLL_MS * 1000000L };

	p->result = p->output = -1;
	for (int waited = 0; waited <= PORTS_WAIT_MS; waited += PORTS_POLL_MS) {
		if (p->result < 0)
			p->result = open_named_port(HB_PORT_RESULT);
		if (p->output < 0)
			p->output = open_named_port(HB_PORT_OUTPUT);
		if (p->result >= 0 && p->output >= 0)
			return 0;
		nanosleep(&pause, NULL);
	}
	init_set_why(why, 0, "virtio-serial port%s%s%s not found in " PORTS_CLASS_DIR,
		p->result < 0 ? " " HB_PORT_RESULT : "",
		p->result < 0 && p->output < 0 ? " and" : "",
		p->output < 0 ? " " HB_PORT_OUTPUT : "");
	return -1;
}
