/* The guest protocol (guest/init/PROTOCOL.md): what the host (harness/boot/) and the guest
 * init (guest/init/) must agree on, defined once for both. C, libc-only, constants and
 * line formats only: the guest init is static and links nothing but libc.
 *
 * The two sides are built together (an unknown key or a version mismatch is an error,
 * never a guess), so the version changes whenever a line or frame below changes shape. */
#ifndef HB_GUEST_PROTOCOL_H
#define HB_GUEST_PROTOCOL_H

#define HB_PROTOCOL_VERSION 1

/* The job file (host -> guest, before the boot): its first line is
 * "hardbench-job <version>", then "key value" lines with %XX-encoded values. */
#define HB_JOBFILE_MAGIC "hardbench-job"

/* The virtio-serial port names (QEMU's virtserialport name=, the guest's
 * /sys/class/virtio-ports/<port>/name). */
#define HB_PORT_RESULT "hardbench.result"
#define HB_PORT_OUTPUT "hardbench.output"

/* Result port (guest -> host), one text line each; printf formats, which the host scans
 * with the same shapes. "hello <version> <uname -r>" opens the conversation. */
#define HB_LINE_HELLO "hello %d %s"
#define HB_LINE_START "start %d %d"          /* <job> <rep>, 0-based */
#define HB_LINE_EXIT "exit %d %d %d %d"      /* <job> <rep> <code> <signal> */

/* Output port (guest -> host): "<stream> <job> <rep> <length>\n" then length bytes. */
#define HB_FRAME_HEAD "%c %d %d %zu\n"
#define HB_STREAM_STDOUT 'o'
#define HB_STREAM_STDERR 'e'
#define HB_STREAM_END 'z'                    /* "z 0 0 0\n": no more output */

/* Host -> guest on the result port, once everything has arrived: the init may power off. */
#define HB_ACK "bye\n"

#endif
