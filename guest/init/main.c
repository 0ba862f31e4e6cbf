/* hardbench-init: PID 1 of a hardbench guest (PROTOCOL.md). Reads the job file, mounts the
 * guest tree, runs each job's repetitions, reports on the virtio-serial ports, powers off.
 * Every failure is reported on the result port (when it exists) before power-off. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "helper.h"
#include "init.h"

/* An old or broken host never answers: power off anyway after this. */
#define HOST_ACK_WAIT_MS 10000

__attribute__((noreturn)) static void power_off(void)
{
	sync();
	reboot(RB_POWER_OFF);
	init_console_msg("power-off failed; halting");
	for (;;)
		pause();
}

/* A port write returns once the data is queued, not once QEMU has taken it; power-off
 * right away could lose the last lines. The host answers "bye" when it has read them. */
static void await_host_ack(const struct ports *p)
{
	struct pollfd pfd = { .fd = p->result, .events = POLLIN };
	char buf[16];

	if (poll(&pfd, 1, HOST_ACK_WAIT_MS) > 0 && read(p->result, buf, sizeof(buf)) < 0)
		init_console_msg("reading the host's ack: %s", strerror(errno));
}

__attribute__((noreturn)) static void fail(const struct ports *p, const char *phase,
					   const char *why)
{
	init_console_msg("%s failed: %s", phase, why);
	if (p && p->result >= 0) {
		port_line(p->result, "fail %s %s", phase, why);
		await_host_ack(p);
	}
	power_off();
}

/* Read first: the directory the job file lives in may be covered by a later mount. */
static int load_job_file(int argc, char **argv, struct init_spec *spec, char why[INIT_WHY_MAX])
{
	char *text;

	if (argc < 2) {
		init_set_why(why, 0, "no job file: the kernel command line must end in '-- JOBFILE'");
		return -1;
	}
	text = helper_read_file(argv[1]);
	if (!text) {
		init_set_why(why, errno, "job file %s", argv[1]);
		return -1;
	}
	return jobfile_parse(text, spec, why);
}

/* With hbtrace=1 on the kernel command line (the kernel passes it to init in the
 * environment; a dotted name would be taken for a module parameter), each step is timed
 * on the console: where the init's own time goes. */
static void trace(const char *step)
{
	struct timespec ts;
	const char *on = getenv("hbtrace");

	if (!on || strcmp(on, "1"))
		return;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	init_console_msg("%5ld.%06ld %s", (long)ts.tv_sec, ts.tv_nsec / 1000, step);
}

static void run_all(const struct init_spec *spec, const struct ports *p)
{
	for (size_t j = 0; j < spec->njobs; j++)
		for (int r = 0; r < spec->jobs[j].reps; r++)
			run_rep(spec, &spec->jobs[j], (int)j, r, p);
}

int main(int argc, char **argv)
{
	char job_why[INIT_WHY_MAX] = "", why[INIT_WHY_MAX] = "";
	struct init_spec spec;
	struct ports p = { -1, -1 };
	struct utsname u;
	int job_ok;

	if (getpid() != 1) {
		init_console_msg("runs only as PID 1 of a hardbench guest (see PROTOCOL.md)");
		return 2;
	}
	trace("start");
	job_ok = load_job_file(argc, argv, &spec, job_why) == 0;
	trace("job file read");
	if (mount_early(why) < 0)
		fail(NULL, "mount", why);
	trace("proc, sys, dev mounted");
	if (ports_open(&p, why) < 0)
		fail(&p, "ports", why);
	trace("ports open");
	uname(&u);
	port_line(p.result, HB_LINE_HELLO, HB_PROTOCOL_VERSION, u.release);
	if (!job_ok)
		fail(&p, "job", job_why);
	if (mount_guest_tree(&spec, p.result, why) < 0)
		fail(&p, "mount", why);
	init_bring_up_loopback();
	init_online_cpus(p.result);
	sethostname("hardbench", strlen("hardbench"));
	trace("guest tree mounted");
	run_all(&spec, &p);
	trace("jobs done");
	port_frame(p.output, HB_STREAM_END, 0, 0, "", 0);
	port_line(p.result, "done");
	await_host_ack(&p);
	power_off();
}
