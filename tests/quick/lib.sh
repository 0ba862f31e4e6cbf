# Shared by the quick-matrix tests (sourced): HARNESS and SRC from the arguments, the
# quick matrix's parameters, and sample counting with jq; WORK, fail and finish come from
# tests/common/lib.sh.
. "$(dirname "${BASH_SOURCE[0]}")/../common/lib.sh"
HARNESS=$1
SRC=$2

# The quick matrix runs under the instruction-count clock: its numbers repeat from boot to
# boot and from host to host (hugetlb and test_vmalloc to within 0.5%), so the gate against
# ci/reference compares absolute values with a tight threshold. 1 vCPU (no hot-added vCPUs
# to wait for) and 1G of guest RAM keep the boots short (init_on_free clears it at boot).
QUICK_VM=(--clock icount --cores 1 --mem 1024M)
# The gate's threshold (percent) and significance level: see ci/reference/README.md.
QUICK_MAX_SLOWDOWN=3
QUICK_ALPHA=0.01

# The quick matrix's workload parameters: small, but each effect still shows under TCG.
QUICK_PARAMS=(
	--param hugetlb.pages=128
	--param hackbench.groups=2 --param hackbench.loops=50
	--param test_vmalloc.modes=performance --param test_vmalloc.run_test_mask=3
	--param test_vmalloc.test_loop_count=5000
)

# meta SET PATH: a value from meta.json.
meta() {
	jq -r "$2" "$1/meta.json"
}
