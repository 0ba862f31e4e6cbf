# Shared by the slurm suite (sourced): HARNESS and SRC from the arguments, a real cluster
# started in WORK (stopped, exactly its daemons, on exit), or TAP "1..0 # SKIP reason"
# when this machine cannot run one. WORK, fail and the tap_* helpers: tests/common/lib.sh.
. "$(dirname "${BASH_SOURCE[0]}")/../common/lib.sh"
HARNESS=$1
SRC=$2
CLUSTER=$SRC/tests/executor/cluster.sh
# The quick matrix's hugetlb: small, but init_on_alloc's cost still shows under TCG.
PARAMS=(--param hugetlb.pages=128)

if ! why=$("$CLUSTER" check); then
	echo "1..0 # SKIP $why"
	exit 0
fi
trap '"$CLUSTER" stop "$WORK/cluster"; rm -rf "$WORK"' EXIT
# munged and slurmd (users munge, slurm) reach their folders under WORK; the result sets
# under WORK are what every "node" (this host) sees.
chmod 0755 "$WORK"
if ! env=$("$CLUSTER" start "$WORK/cluster"); then
	echo "Bail out! the cluster did not start (root and packages are there): see $WORK/cluster/log"
	exit 1
fi
eval "$env"
