#!/bin/bash
# A real single-node Slurm cluster from Debian's packages (slurmctld, slurmd, munge), for
# the slurm suite and the benchmark; everything lives in a scratch folder, nothing under
# /etc, and stop ends exactly the daemons start started (by the pids in their pid files).
#   cluster.sh start SCRATCH   prints "export SLURM_CONF=SCRATCH/slurm.conf" once the node is idle
#   cluster.sh stop SCRATCH    TERMs slurmd, slurmctld and our munged; waits for them
#   cluster.sh check           exit 0 when this machine can run it (root, packages), else
#                              prints the reason and exits 77
# Own munged socket and own ports, so a cluster someone else runs here is not touched.
set -euo pipefail

need() {
	[ "$(id -u)" = 0 ] || { echo "needs root (slurmd and munged start as root)"; exit 77; }
	for p in slurmctld slurmd munged sbatch squeue scancel; do
		command -v "$p" > /dev/null || [ -x "/usr/sbin/$p" ] ||
			{ echo "$p missing (apt-get install slurmctld slurmd slurm-client munge)"; exit 77; }
	done
	[ -r /etc/munge/munge.key ] || { echo "/etc/munge/munge.key missing (the munge package makes it)"; exit 77; }
}

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

write_conf() {
	local s=$1 host cpus mem
	host=$(hostname -s)
	cpus=$(nproc)
	mem=$(( $(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo) - 1024 ))
	cat > "$s/slurm.conf" <<CONF
ClusterName=hbci
SlurmctldHost=$host
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=slurm
AuthType=auth/munge
AuthInfo=socket=$s/munge/munge.socket
CredType=cred/munge
MailProg=/bin/true
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/run/slurmctld.pid
SlurmdPidFile=$s/run/slurmd.pid
SlurmctldLogFile=$s/log/slurmctld.log
SlurmdLogFile=$s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
DependencyParameters=kill_invalid_depend
JobRequeue=0
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$s/log/jobcomp.txt
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
}

start() {
	local s=$1
	need
	mkdir -p "$s"/{state,spool,log,run,munge}
	s=$(cd "$s" && pwd)
	chmod 0755 "$s"
	chown slurm:slurm "$s/state" "$s/log"
	chown munge:munge "$s/munge"
	chmod 0755 "$s/munge"
	runuser -u munge -- /usr/sbin/munged --socket="$s/munge/munge.socket" --pid-file="$s/munge/munged.pid" \
		--log-file="$s/munge/munged.log" --seed-file="$s/munge/munged.seed" > /dev/null
	write_conf "$s"
	export SLURM_CONF=$s/slurm.conf
	/usr/sbin/slurmctld -f "$SLURM_CONF"
	/usr/sbin/slurmd -f "$SLURM_CONF"
	for _ in $(seq 300); do
		[ "$(sinfo -h -o %T 2> /dev/null)" = idle ] && { echo "export SLURM_CONF=$SLURM_CONF"; return 0; }
		sleep 0.1
	done
	echo "the node did not become idle in 30 s: see $s/log" >&2
	stop "$s"
	return 1
}

stop_pidfile() {
	local f=$1 pid
	[ -s "$f" ] || return 0
	pid=$(cat "$f")
	kill -TERM "$pid" 2> /dev/null || return 0
	for _ in $(seq 100); do
		kill -0 "$pid" 2> /dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$pid" 2> /dev/null || true
}

stop() {
	local s=$1
	stop_pidfile "$s/run/slurmd.pid"
	stop_pidfile "$s/run/slurmctld.pid"
	stop_pidfile "$s/munge/munged.pid"
}

case ${1:-} in
	start) start "$2" ;;
	stop) stop "$2" ;;
	check) need ;;
	*) echo "usage: cluster.sh start|stop SCRATCH | check" >&2; exit 2 ;;
esac
