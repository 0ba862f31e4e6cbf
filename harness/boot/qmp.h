/* A minimal QMP client: enough to read vCPU thread ids and resume a -S guest. */
#ifndef HB_BOOT_QMP_H
#define HB_BOOT_QMP_H

#include <json-c/json.h>
#include <sys/types.h>

struct qmp;

/* Takes the connected socket fd; reads the greeting and negotiates capabilities.
 * NULL after setting *why when QEMU does not answer within timeout_s. */
struct qmp *qmp_open(int fd, double timeout_s, char **why);
/* Runs a command; returns its "return" value (caller puts) or NULL with *why. */
json_object *qmp_execute(struct qmp *q, const char *command, double timeout_s, char **why);
/* vCPU index -> host thread id, from query-cpus-fast. Returns the count, -1 with *why. */
int qmp_vcpu_threads(struct qmp *q, pid_t **tids, double timeout_s, char **why);
void qmp_close(struct qmp *q);

#endif
