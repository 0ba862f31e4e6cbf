/* Section markers: how a guest program tells a TCG plugin on the host where a timed section
 * starts and ends, with no system call, no device and no change of guest time.
 *
 * A marker is one instruction, `nopl disp32(%rax)`, encoded 0f 1f 80 <disp32>: a 7-byte NOP
 * that every x86-64 CPU executes as a no-op (Intel SDM, "NOP - No Operation", the
 * recommended multi-byte sequence of 7 bytes). On hardware, under KVM or under TCG without
 * a plugin it does nothing but take one instruction; a plugin recognises it at translation
 * time from the instruction's bytes (qemu_plugin_insn_data) and puts a callback on that
 * instruction alone. Its displacement carries the meaning, little-endian:
 *
 *     byte 3 'H' (0x48)  byte 4 'B' (0x42)  byte 5 'S' start | 'E' end  byte 6 id (0-255)
 *
 * so disp32 = id << 24 | kind << 16 | 'B' << 8 | 'H'. A compiler never emits this: its NOPs
 * are padding with displacement 0.
 *
 * Ids: 0 brackets one repetition of a job, placed by the guest init (guest/init/run.c) right
 * after the clock read that starts the job's "wall" and right before the one that ends it
 * (fork to wait4). 1-255 bracket a workload's own timed step inside it (its helper places
 * them the same way around its helper_now() reads): workload.ini's `marker = ID` in a
 * [metric] section says which id times that metric (workloads/README.md).
 *
 * What a plugin may rely on (plugins/common/marker.c decodes it, plugins/profile/ uses it):
 * - a section is the instructions executed, by every vCPU, between the start and the end
 *   marker of one id: under icount all vCPUs run in one host thread, so one global
 *   armed/disarmed state per id is coherent (under MTTCG it is not: the profile refuses
 *   several vCPUs on the host clock);
 * - sections of different ids nest (id 0 around the step ids of its repetition); a start
 *   of an id already started restarts it, an end of an id not started is ignored (counted);
 * - the guest init marks every repetition it starts, failed or not, in job order then
 *   repetition order, so the n-th id-0 section of a boot is its n-th repetition;
 * - the clock reads lie outside the markers: the section is the timed interval minus the
 *   tail of one clock_gettime call (a few dozen instructions of the vDSO).
 *
 * Nothing else may use these displacements. Guest programs include this file (C, libc-only
 * code, no runtime cost beyond the instruction); plugins include it for the constants. */
#ifndef HB_GUEST_MARKER_H
#define HB_GUEST_MARKER_H

#define HB_MARK_LEN 7
#define HB_MARK_OP0 0x0f
#define HB_MARK_OP1 0x1f
#define HB_MARK_MODRM 0x80
#define HB_MARK_TAG0 'H'
#define HB_MARK_TAG1 'B'
#define HB_MARK_START_KIND 'S'
#define HB_MARK_END_KIND 'E'
/* The id of the guest init's marks around each job repetition. */
#define HB_MARK_ID_JOB 0
#define HB_MARK_ID_MAX 255

#define HB_MARK_DISP(kind, id) \
	((unsigned)(id) << 24 | (unsigned)(kind) << 16 | (unsigned)HB_MARK_TAG1 << 8 | HB_MARK_TAG0)

#if defined(__x86_64__) && !defined(HB_MARK_NO_ASM)
/* The instruction, with a compiler barrier: no memory access moves across it, and calls
 * (the clock reads beside it) stay on their side. id must be a constant. */
#define HB_MARK_(kind, id)                                                                 \
	__asm__ __volatile__(".byte 0x0f, 0x1f, 0x80\n\t.long %c0" ::"i"(HB_MARK_DISP(kind, id)) \
			     : "memory")
#else
#define HB_MARK_(kind, id) ((void)0)
#endif

#define HB_MARK_START(id) HB_MARK_(HB_MARK_START_KIND, id)
#define HB_MARK_END(id) HB_MARK_(HB_MARK_END_KIND, id)

#endif
