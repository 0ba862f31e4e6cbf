/* CPU identity and the flags that change the cost of the hardening features measured
 * here: PCID/INVPCID (TLB flush cost, seed 002), AVX-512 (memset/clear speed), and
 * whether we are ourselves a guest (nested virtualisation changes everything). */
#include "hostinfo/hostinfo.h"

#include <stdbool.h>
#include <stdint.h>
#include <libcpuid/libcpuid.h>

/* libcpuid 0.6 has no PCID/INVPCID feature ids, so read them from its raw CPUID dump.
 * Register order in the dump is EAX, EBX, ECX, EDX (libcpuid.h, cpu_exec_cpuid). */
enum { REG_EBX = 1, REG_ECX = 2 };
#define LEAF1_ECX_PCID (1u << 17)    /* CPUID.01H:ECX[17] */
#define LEAF7_EBX_INVPCID (1u << 10) /* CPUID.(EAX=07H,ECX=0):EBX[10] */
#define LEAF7_EBX_AVX512F (1u << 16) /* CPUID.(EAX=07H,ECX=0):EBX[16] */

/* libcpuid reports -1 for a cache level it could not see (common inside VMs). */
static json_object *kib_or_null(int32_t kib)
{
	return kib >= 0 ? json_object_new_int(kib) : NULL;
}

static json_object *cache_object(const struct cpu_id_t *id)
{
	json_object *c = json_object_new_object();

	json_object_object_add(c, "l1d", kib_or_null(id->l1_data_cache));
	json_object_object_add(c, "l1i", kib_or_null(id->l1_instruction_cache));
	json_object_object_add(c, "l2", kib_or_null(id->l2_cache));
	json_object_object_add(c, "l3", kib_or_null(id->l3_cache));
	return c;
}

static json_object *flags_object(const struct cpu_raw_data_t *raw, const struct cpu_id_t *id)
{
	json_object *f = json_object_new_object();
	bool has_leaf7 = raw->basic_cpuid[0][0] >= 7;

	json_object_object_add(f, "pcid",
			       json_object_new_boolean((raw->basic_cpuid[1][REG_ECX] & LEAF1_ECX_PCID) != 0));
	json_object_object_add(f, "invpcid", json_object_new_boolean(has_leaf7 &&
		(raw->basic_cpuid[7][REG_EBX] & LEAF7_EBX_INVPCID) != 0));
	/* From the raw leaf too: libcpuid 0.6.2 decodes AVX512F only on Intel (AMD Zen 4 has it). */
	json_object_object_add(f, "avx512f", json_object_new_boolean(has_leaf7 &&
		(raw->basic_cpuid[7][REG_EBX] & LEAF7_EBX_AVX512F) != 0));
	json_object_object_add(f, "hypervisor", json_object_new_boolean(id->flags[CPU_FEATURE_HYPERVISOR] != 0));
	return f;
}

json_object *hostinfo_cpu(void)
{
	struct cpu_raw_data_t raw;
	struct cpu_id_t id;
	json_object *o;

	if (!cpuid_present())
		return hostinfo_error("libcpuid", "CPUID instruction not available");
	if (cpuid_get_raw_data(&raw) < 0)
		return hostinfo_error("libcpuid", cpuid_error());
	if (cpu_identify(&raw, &id) < 0)
		return hostinfo_error("libcpuid", cpuid_error());
	o = json_object_new_object();
	json_object_object_add(o, "vendor", json_object_new_string(id.vendor_str));
	json_object_object_add(o, "brand", json_object_new_string(id.brand_str));
	json_object_object_add(o, "family", json_object_new_int(id.ext_family));
	json_object_object_add(o, "model", json_object_new_int(id.ext_model));
	json_object_object_add(o, "stepping", json_object_new_int(id.stepping));
	json_object_object_add(o, "cores", json_object_new_int(id.num_cores));
	json_object_object_add(o, "threads", json_object_new_int(id.num_logical_cpus));
	json_object_object_add(o, "cache_kib", cache_object(&id));
	json_object_object_add(o, "flags", flags_object(&raw, &id));
	return o;
}
