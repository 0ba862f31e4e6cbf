#include "boot/virtiofsd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/paths.h"
#include "common/progress.h"
#include "common/xalloc.h"

/* Its socket appears within milliseconds; a loaded TCG host can be slow to fork. */
#define SOCKET_WAIT_S 10.0

void virtiofsd_prepare(struct virtiofsd *v, const char *rundir, const struct host_view *view)
{
	*v = (struct virtiofsd){ .proc = { .pid = -1, .pidfd = -1 }, .hv = view };
	v->socket = hb_path_join(rundir, "virtiofsd.sock");
	v->view = xstrdup(view->root);
	v->argv = xcalloc(8, sizeof(*v->argv));
	v->argv[0] = xstrdup(VIRTIOFSD_PATH);
	v->argv[1] = xasprintf("--socket-path=%s", v->socket);
	v->argv[2] = xstrdup("-o");
	v->argv[3] = xasprintf("source=%s", v->view);
	/* The host tree does not change under a boot: let the guest cache everything. */
	v->argv[4] = xstrdup("-o");
	v->argv[5] = xstrdup("cache=always");
}

static bool is_socket(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISSOCK(st.st_mode);
}

static char *last_log_line(const char *log_path)
{
	char *text = hb_read_file(log_path, NULL);
	char *line;

	if (!text)
		return xstrdup("(no output)");
	for (size_t n = strlen(text); n && text[n - 1] == '\n'; n--)
		text[n - 1] = '\0';
	line = xstrdup(*text ? hb_tail_lines(text, 1) : "(no output)");
	free(text);
	return line;
}

int virtiofsd_start(struct virtiofsd *v, const char *log_path, char **why)
{
	struct spawn_opts co = hb_child_opts(log_path, "virtiofsd");
	double end = hb_now() + SOCKET_WAIT_S;

	if (access(VIRTIOFSD_PATH, X_OK) < 0) {
		*why = xasprintf("%s: %s", VIRTIOFSD_PATH, strerror(errno));
		return -1;
	}
	co.setup = host_view_mount;
	co.setup_ctx = v->hv;
	if (hb_child_start(&v->proc, v->argv, &co) < 0) {
		*why = xasprintf("virtiofsd did not start (see %s)", log_path);
		return -1;
	}
	v->running = true;
	while (!is_socket(v->socket)) {
		const struct timespec tick = { 0, 5 * 1000000L };
		if (hb_child_exited(&v->proc) || hb_now() > end) {
			char *line = last_log_line(log_path);
			*why = xasprintf("virtiofsd %s: %s", hb_child_exited(&v->proc) ? "exited" : "made no socket",
					 line);
			free(line);
			virtiofsd_stop(v);
			return -1;
		}
		nanosleep(&tick, NULL);
	}
	return 0;
}

void virtiofsd_stop(struct virtiofsd *v)
{
	if (!v->running)
		return;
	hb_child_stop(&v->proc, 2.0);
	v->running = false;
}

void virtiofsd_free(struct virtiofsd *v)
{
	virtiofsd_stop(v);
	free(v->socket);
	free(v->view);
	hb_free_strv(v->argv);
	*v = (struct virtiofsd){ .proc = { .pid = -1, .pidfd = -1 } };
}
