/* The guest protocol (guest/init/PROTOCOL.md): what the host (harness/boot/) and the guest
 * init (guest/init/) must agree on, defined once for both. C, libc-only, constants and
 * line formats only (and the one check of an irq label both sides make): the guest init is
 * static and links nothing but libc.
 *
 * The two sides are built together (an unknown key or a version mismatch is an error,
 * never a guess), so the version changes whenever a line or frame below changes shape. */
#ifndef HB_GUEST_PROTOCOL_H
#define HB_GUEST_PROTOCOL_H

#include <string.h>

/* 2: the job file's "irq" key and the result port's "irq"/"noirq" lines. */
#define HB_PROTOCOL_VERSION 2

/* The job file (host -> guest, before the boot): its first line is
 * "hardbench-job <version>", then "key value" lines with %XX-encoded values. */
#define HB_JOBFILE_MAGIC "hardbench-job"
/* A job's "irq LABEL" line: count that /proc/interrupts row over each rep. */
#define HB_JOBFILE_IRQ "irq"

/* A /proc/interrupts row label ("CAL", "TLB", "LOC", "48"): the text before the row's
 * colon, blanks trimmed. Both sides refuse anything else, so a label never needs quoting. */
#define HB_IRQ_LABEL_MAX 15
#define HB_IRQ_LABEL_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

static inline int hb_irq_label_ok(const char *label)
{
	size_t n = strlen(label);
	return n >= 1 && n <= HB_IRQ_LABEL_MAX && strspn(label, HB_IRQ_LABEL_CHARS) == n;
}

/* The virtio-serial port names (QEMU's virtserialport name=, the guest's
 * /sys/class/virtio-ports/<port>/name). */
#define HB_PORT_RESULT "hardbench.result"
#define HB_PORT_OUTPUT "hardbench.output"

/* Result port (guest -> host), one text line each; printf formats, which the host scans
 * with the same shapes. "hello <version> <uname -r>" opens the conversation. A line is at
 * most HB_RESULT_LINE_MAX bytes with its newline (the init cuts longer ones; the host
 * refuses them as a protocol error). */
#define HB_RESULT_LINE_MAX 1024
#define HB_LINE_HELLO "hello %d %s"
#define HB_LINE_START "start %d %d"          /* <job> <rep>, 0-based */
#define HB_LINE_EXIT "exit %d %d %d %d"      /* <job> <rep> <code> <signal> */
/* Between start and exit, one per label the job asked for: the row's sum over all CPUs
 * after the rep minus before it; or why there is no count (the rest of the line). */
#define HB_LINE_IRQ "irq %s %llu"            /* <label> <delta> */
#define HB_LINE_NOIRQ "noirq %s %s"          /* <label> <reason> */

/* Output port (guest -> host): "<stream> <job> <rep> <length>\n" then length bytes, length
 * at most HB_FRAME_MAX (the init's read size; the host refuses a longer frame). */
#define HB_FRAME_HEAD "%c %d %d %zu\n"
#define HB_FRAME_MAX 65536
#define HB_STREAM_STDOUT 'o'
#define HB_STREAM_STDERR 'e'
#define HB_STREAM_END 'z'                    /* "z 0 0 0\n": no more output */

/* Host -> guest on the result port, once everything has arrived: the init may power off. */
#define HB_ACK "bye\n"

#endif
