#!/bin/bash
# `mpiguard hang` on a job one rank of which dies while the others wait for it (docs/hang.md "A rank
# that dies"). Usage: hang_dead.sh kill|exit0|verifying|vanish FLAVOR SAMPLER. Whether the launcher
# ends the others (status of the job, or 80 when it says 0; the job's outcome "failed") or leaves
# them waiting (mpiguard stops the job: 81, "stopped"), a hang finding names rank 1, its signal 9
# or exit status 0, what became of the job, and its last MPI call as it published it
# (MPI_Allreduce; under ptrace too: mpiguard started the job); never "no hang found".
# Case verifying (run 81023 of issue 29): a job hung from the start with rank 0 polling MPI_Test
# (hang_start/first_call.c poll); rank 1 is killed with SIGKILL as soon as the first-call rule's
# verification begins, so that its scans see ranks vanish (the launcher ends the others after it):
# the same dead-rank finding, not a communication hang with no culprit.
# Case vanish (run 131088 of issue 29): rank 1 of an alltoall loop is killed with SIGKILL from
# outside, 3 s after it is found, three times; where its peers abort because they can no longer
# read its memory (MPICH over UCX), rank 1 is still the one named, with its signal 9.
. "$(dirname "$0")/../lib.sh"
case=$1 flavor=$2 sampler=$3 np=4
report="$TMP/hang.json"

# The finding names rank 1 with its end (killed: signal 9, else exit status 0) and last MPI call.
check_finding() {
    ! grep -q "no hang found" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "a dead rank reported as no hang"; }
    expect_stderr "rank 1 (pid [0-9]*) .* without calling MPI_Finalize"
    python3 - "$report" "$1" "$2" <<'PY' || { cat "$TMP/stderr" >&2; fail "report content"; }
import json, sys
r = json.load(open(sys.argv[1])); case, call = sys.argv[2], sys.argv[3]
assert len(r["findings"]) == 1, r["findings"]
f = r["findings"][0]; ev = f["evidence"]
assert f["kind"] == "hang" and ev["hang_type"] == "dead-rank", ev
assert ev["faulty_ranks"] == [1], ev
ended = ev["launcher_ended_job"]
assert r["job"]["outcome"] == ("failed" if ended else "stopped"), (ended, r["job"])
assert f["summary"].endswith("the launcher then ended the job" if ended else "the others were left waiting"), f["summary"]
dead = ev["dead_rank"]
if case == "kill":
    assert dead.get("signal") == 9, dead
else:
    assert dead.get("exit_status") == 0, dead
assert dead["last_mpi_call"] == call, dead
PY
    [ -z "$(leftovers "$TMP/dying_rank")" ] || fail "processes of the job left"
}

if [ "$case" = vanish ]; then
    "mpicc.$flavor" -g -O1 -o "$TMP/dying_rank" "$(dirname "$0")/hang_dead/dying_rank.c" ||
        fail "cannot build the $flavor program"
    aborted=0
    for attempt in 1 2 3; do
        "$MPIGUARD" hang -v --sampler "$sampler" --seed 5 --report "$report" -- $(launcher_for "$flavor") -n $np "$TMP/dying_rank" vanish >"$TMP/stdout" 2>"$TMP/stderr" &
        guard=$!
        await_rank $guard $np 1 || { kill -INT $guard; wait $guard; cat "$TMP/stderr" >&2; fail "rank 1 was not found"; }
        sleep 3
        kill -KILL "$RANK_PID"
        wait_ended $guard 60 || { kill -INT $guard; wait $guard; cat "$TMP/stderr" >&2; fail "no end 60 s after the kill"; }
        wait $guard
        [ $? -ne 0 ] || { cat "$TMP/stderr" >&2; fail "a killed rank ended the watch with status 0"; }
        check_finding kill MPI_Alltoall
        aborted=$((aborted + $(grep -c "process_vm_readv" "$TMP/stderr")))
    done
    pass "rank 1 named in 3 runs ($aborted ranks aborted after it)"
    exit 0
fi

if [ "$case" = verifying ]; then
    "mpicc.$flavor" -g -O1 -o "$TMP/dying_rank" "$(dirname "$0")/hang_start/first_call.c" ||
        fail "cannot build the $flavor program"
    "$MPIGUARD" hang -v --sampler "$sampler" --seed 5 --report "$report" -- $(launcher_for "$flavor") -n $np "$TMP/dying_rank" poll >"$TMP/stdout" 2>"$TMP/stderr" &
    guard=$!
    await_rank $guard $np 1 || { kill -INT $guard; wait $guard; cat "$TMP/stderr" >&2; fail "rank 1 was not found"; }
    for _ in $(seq 1 600); do
        grep -q "verifying" "$TMP/stderr" && break
        kill -0 $guard 2>/dev/null || break
        sleep 0.1
    done
    grep -q "verifying" "$TMP/stderr" || { kill -INT $guard; wait $guard; cat "$TMP/stderr" >&2; fail "no verification began"; }
    kill -KILL "$RANK_PID"
    wait_ended $guard 60 || { kill -INT $guard; wait $guard; cat "$TMP/stderr" >&2; fail "no end 60 s after the kill"; }
    wait $guard
    [ $? -ne 0 ] || { cat "$TMP/stderr" >&2; fail "a killed rank ended the watch with status 0"; }
    case=kill
else
    "mpicc.$flavor" -g -O1 -o "$TMP/dying_rank" "$(dirname "$0")/hang_dead/dying_rank.c" ||
        fail "cannot build the $flavor program"
    expect_status_within 120 nonzero "rank 1 dying by $case" "$TMP/dying_rank" -- "$MPIGUARD" hang -v --sampler "$sampler" --seed 5 --report "$report" -- $(launcher_for "$flavor") -n $np "$TMP/dying_rank" "$case"
fi
check_finding "$case" "$([ "$1" = verifying ] && echo MPI_Recv || echo MPI_Allreduce)"
