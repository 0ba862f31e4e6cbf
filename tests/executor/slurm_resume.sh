#!/bin/bash
# Cancel one shard mid-run (scancel of its job while its guest runs): the run ends
# incomplete naming that shard and its log, the other shard completes and is merged;
# --resume resubmits only the cancelled shard, and the final set holds every repetition
# exactly once with the finished shard's samples unchanged. Then ^C (SIGINT) to the
# submitting harness cancels its jobs; and after kill -9 of the submitting harness,
# --resume waits for the job still running rather than submitting its shard again.
# Usage: slurm_resume.sh HARNESS SOURCE_DIR
. "$(dirname "$0")/lib.sh"
SET=$WORK/set

tap_case "scancel of one shard: the run ends incomplete and names it"
"$HARNESS" run --executor slurm --variants baseline,init_on_alloc --workloads hugetlb --boots 2 --cores 1 \
	"${PARAMS[@]}" --poll-ms 500 --out "$SET" --no-report > "$WORK/first.out" 2> "$WORK/first.err" &
pid=$!
victim=
for _ in $(seq 1200); do
	# the first shard's guest has started: its cell logs exist
	victim=$(squeue -h -t running -n hb-hugetlb-c1-b0 -o %i)
	[ -n "$victim" ] && ls "$SET"/shards/hugetlb-c1-b0/logs/*/ > /dev/null 2>&1 && break
	kill -0 $pid 2> /dev/null || break
	sleep 0.5
done
[ -n "$victim" ] || fail "shard hugetlb-c1-b0 never ran: $(tail -5 "$WORK/first.err")"
scancel "$victim"
wait $pid
rc=$?
[ $rc = 1 ] || fail "a run with a cancelled shard exits 1, got $rc"
grep -q "shard hugetlb-c1-b0 failed: job log $SET/shards/hugetlb-c1-b0.log" "$WORK/first.err" ||
	fail "the failed shard and its log are not named: $(tail -5 "$WORK/first.err")"
grep -q "harness run --resume $SET" "$WORK/first.err" || fail "no resume hint"
[ "$(jq -r .status "$SET/meta.json")" = incomplete ] || fail "status $(jq -r .status "$SET/meta.json")"
[ "$(jq -r '.shards["hugetlb-c1-b1"].state' "$SET/meta.json")" = complete ] || fail "the other shard did not complete"
[ "$(count "$SET" '.boot == 0')" = 0 ] || fail "samples of the cancelled shard were merged"
kept=$(jq -c 'select(.boot == 1)' "$SET/samples.jsonl" | sort | md5sum)

tap_case "--resume resubmits only the cancelled shard and loses nothing"
"$HARNESS" run --resume "$SET" --no-report --poll-ms 500 > "$WORK/second.out" 2> "$WORK/second.err" ||
	fail "resume failed: $(tail -10 "$WORK/second.err")"
grep -q "submitted 1 shard (1 complete already)" "$WORK/second.err" || fail "resume submitted: $(grep 'slurm: submitted' "$WORK/second.err")"
[ "$(jq -r .status "$SET/meta.json")" = complete ] || fail "status after resume $(jq -r .status "$SET/meta.json")"
wall_once_per "$SET" boot 2
[ "$(jq -c 'select(.boot == 1)' "$SET/samples.jsonl" | sort | md5sum)" = "$kept" ] || fail "the finished shard's samples changed"
ls -d "$SET"/shards/.attempts/hugetlb-c1-b0-1 > /dev/null 2>&1 || fail "the cancelled attempt is not kept for its logs"

tap_case "^C cancels the jobs"
"$HARNESS" run --executor slurm --variants baseline,init_on_alloc --workloads hugetlb --boots 1 --cores 1 \
	"${PARAMS[@]}" --poll-ms 500 --out "$WORK/int" --no-report > /dev/null 2> "$WORK/int.err" &
pid=$!
for _ in $(seq 600); do
	[ -n "$(squeue -h -n hb-hugetlb-c1-b0 -o %i)" ] && break
	sleep 0.2
done
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "an interrupted run exits 130, got $rc"
[ -z "$(squeue -h -t pending,running)" ] || fail "jobs left after ^C: $(squeue -h)"
grep -q "interrupted: cancelling 1 job" "$WORK/int.err" || fail "no cancel message: $(tail -3 "$WORK/int.err")"
tap_case "a killed harness: --resume waits for its running job instead of submitting it again"
"$HARNESS" run --executor slurm --variants baseline,init_on_alloc --workloads hugetlb --boots 1 --cores 1 \
	"${PARAMS[@]}" --poll-ms 500 --out "$WORK/kill" --no-report > /dev/null 2> "$WORK/kill.err" &
pid=$!
job=
for _ in $(seq 600); do
	job=$(squeue -h -t running -n hb-hugetlb-c1-b0 -o %i)
	[ -n "$job" ] && break
	sleep 0.2
done
kill -KILL $pid
wait $pid 2> /dev/null
"$HARNESS" run --resume "$WORK/kill" --no-report --poll-ms 500 > /dev/null 2> "$WORK/kill2.err" ||
	fail "resume after kill -9: $(tail -5 "$WORK/kill2.err")"
grep -q "job $job of an earlier submission is RUNNING: waiting for it" "$WORK/kill2.err" ||
	fail "the running job was not adopted: $(grep -E 'slurm:|harness:' "$WORK/kill2.err" | head -5)"
grep -q "submitted 0 shards" "$WORK/kill2.err" || fail "resume submitted the running shard again"
[ "$(jq -r .status "$WORK/kill/meta.json")" = complete ] || fail "status $(jq -r .status "$WORK/kill/meta.json")"
[ ! -d "$WORK/kill/shards/.attempts" ] || fail "the running shard was moved aside"
tap_finish
