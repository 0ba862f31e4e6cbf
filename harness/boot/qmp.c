#include "boot/qmp.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <string.h>
#include <unistd.h>

#include "common/progress.h"
#include "common/xalloc.h"

struct qmp {
	int fd;
	json_tokener *tok;
	char buf[4096];
	size_t have, used; /* bytes in buf, bytes already given to the tokener */
};

/* The next JSON object from QEMU (responses and events alike), NULL on timeout/EOF. */
static json_object *next_message(struct qmp *q, double deadline, char **why)
{
	for (;;) {
		while (q->used < q->have) {
			size_t n = q->have - q->used;
			json_object *o = json_tokener_parse_ex(q->tok, q->buf + q->used, (int)n);
			enum json_tokener_error e = json_tokener_get_error(q->tok);
			q->used += e == json_tokener_continue ? n : json_tokener_get_parse_end(q->tok);
			if (o)
				return o;
			if (e != json_tokener_continue) {
				*why = xasprintf("QMP: bad JSON from QEMU: %s", json_tokener_error_desc(e));
				json_tokener_reset(q->tok);
				return NULL;
			}
		}
		struct pollfd p = { .fd = q->fd, .events = POLLIN };
		double left = deadline - hb_now();
		if (left <= 0 || poll(&p, 1, (int)(left * 1000) + 1) <= 0) {
			*why = xstrdup("QMP: QEMU did not answer in time");
			return NULL;
		}
		ssize_t n = read(q->fd, q->buf, sizeof(q->buf));
		if (n <= 0) {
			*why = xasprintf("QMP: connection closed%s%s", n < 0 ? ": " : "",
					 n < 0 ? strerror(errno) : "");
			return NULL;
		}
		q->have = (size_t)n;
		q->used = 0;
	}
}

static int send_command(struct qmp *q, const char *command)
{
	json_object *cmd = json_object_new_object();
	const char *text;
	int rc = 0;

	json_object_object_add(cmd, "execute", json_object_new_string(command));
	text = json_object_to_json_string_ext(cmd, JSON_C_TO_STRING_PLAIN);
	for (size_t len = strlen(text), off = 0; off < len && !rc;) {
		ssize_t n = send(q->fd, text + off, len - off, MSG_NOSIGNAL);
		if (n < 0 && errno != EINTR)
			rc = -1;
		else if (n > 0)
			off += (size_t)n;
	}
	json_object_put(cmd);
	return rc;
}

json_object *qmp_execute(struct qmp *q, const char *command, double timeout_s, char **why)
{
	double deadline = hb_now() + timeout_s;
	json_object *msg, *val;

	if (send_command(q, command) < 0) {
		*why = xasprintf("QMP: cannot send %s: %s", command, strerror(errno));
		return NULL;
	}
	while ((msg = next_message(q, deadline, why))) {
		if (json_object_object_get_ex(msg, "return", &val)) {
			json_object_get(val);
			json_object_put(msg);
			return val;
		}
		if (json_object_object_get_ex(msg, "error", &val)) {
			json_object *desc = json_object_object_get(val, "desc");
			*why = xasprintf("QMP %s: %s", command, desc ? json_object_get_string(desc) : "error");
			json_object_put(msg);
			return NULL;
		}
		json_object_put(msg); /* an event: not ours */
	}
	return NULL;
}

struct qmp *qmp_open(int fd, double timeout_s, char **why)
{
	struct qmp *q = xcalloc(1, sizeof(*q));
	json_object *greeting, *ret;

	q->fd = fd;
	q->tok = json_tokener_new();
	greeting = next_message(q, hb_now() + timeout_s, why);
	if (!greeting || !json_object_object_get_ex(greeting, "QMP", NULL)) {
		if (greeting && !*why)
			*why = xstrdup("QMP: no greeting from QEMU");
		json_object_put(greeting);
		qmp_close(q);
		return NULL;
	}
	json_object_put(greeting);
	ret = qmp_execute(q, "qmp_capabilities", timeout_s, why);
	if (!ret) {
		qmp_close(q);
		return NULL;
	}
	json_object_put(ret);
	return q;
}

int qmp_vcpu_threads(struct qmp *q, pid_t **tids, double timeout_s, char **why)
{
	json_object *cpus = qmp_execute(q, "query-cpus-fast", timeout_s, why);
	size_t n;

	if (!cpus)
		return -1;
	n = json_object_array_length(cpus);
	*tids = xcalloc(n ? n : 1, sizeof(**tids));
	for (size_t i = 0; i < n; i++) {
		json_object *cpu = json_object_array_get_idx(cpus, i), *idx, *tid;
		if (!json_object_object_get_ex(cpu, "cpu-index", &idx) ||
		    !json_object_object_get_ex(cpu, "thread-id", &tid) ||
		    json_object_get_int(idx) < 0 || (size_t)json_object_get_int(idx) >= n) {
			*why = xstrdup("QMP query-cpus-fast: entry without cpu-index/thread-id");
			json_object_put(cpus);
			free(*tids);
			*tids = NULL;
			return -1;
		}
		(*tids)[json_object_get_int(idx)] = (pid_t)json_object_get_int(tid);
	}
	json_object_put(cpus);
	return (int)n;
}

void qmp_close(struct qmp *q)
{
	if (!q)
		return;
	json_tokener_free(q->tok);
	close(q->fd);
	free(q);
}
