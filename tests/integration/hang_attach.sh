#!/bin/bash
# `mpiguard hang --attach PID` on a job started without mpiguard (no interposition library: the
# ptrace sampler reads stacks alone). Usage: hang_attach.sh CASE FLAVOR
#   found     a 4-rank stencil whose rank 1 enters an endless loop at 20 s: the hang is found after
#             attaching, exit 81, a computation hang naming rank 1, and the job is stopped with
#             nothing of it left
#   looping   the stencil's rank 1 already in its endless loop when mpiguard attaches (its siblings
#             wait in MPI, no counter moves): found within 45 s, rank 1 named outside MPI (it was
#             the model's alone, after about 93 s, issue 29)
#   computing a healthy job computing most of the time (hang_attach/compute_gaps.c: its last rank
#             1.5 s between calls, read outside MPI at nearly every sample, the others waiting
#             for it), watched 30 s: no hang
#   released  a healthy 4-rank stencil; mpiguard is sent SIGINT while it samples: it lets go
#             at once (exit 130, report outcome "released", no rank left stopped) and the job runs
#             to its end untouched, exit 0
#   healthy   a healthy job inside MPI_Barrier at nearly every sample (hang_attach/barrier_loop.c),
#             watched 30 s: no hang (the first-call rule verified it as hung from its first call
#             after 19 s, issue 29), the model built from its frames' changes, then let go
#   blind     3 stencil ranks and a 4th that is not MPI (an MPMD job): the 4th is named not
#             observed as not MPI as soon as it is judged, and so in the report, the 3 others
#             observed by ptrace; the job hangs in MPI_Init for it, found (exit 81) and stopped
. "$(dirname "$0")/../lib.sh"
case=$1 flavor=$2 np=4
app="$BUILD/examples/$flavor/stencil"
report="$TMP/hang.json"

# start_job ARGS...: the plain job in the background; sets $job (the launcher) and waits for its
# ranks to announce themselves.
start_job() {
    job_started=$(date +%s)
    $(launcher_for "$flavor") -n $np "$app" --announce "$@" >"$TMP/job.out" 2>"$TMP/job.err" &
    job=$!
    for _ in $(seq 1 100); do
        [ "$(grep -c "^stencil: rank" "$TMP/job.err" 2>/dev/null)" = $np ] && return
        sleep 0.1
    done
    fail "the job did not start"
}
rank_pids() { sed -n "s/^stencil: rank [0-9]* of $np pid \([0-9]*\)$/\1/p" "$TMP/job.err"; }
# watch_then_release SECONDS: mpiguard attached to $job for SECONDS while it watches, without a
# verdict, then sent SIGINT: it lets go at once (exit 130, report outcome "released", no finding).
watch_then_release() {
    "$MPIGUARD" hang -v --attach $job --seed 7 --report "$report" >"$TMP/stdout" 2>"$TMP/stderr" &
    local guard=$!
    for _ in $(seq 1 300); do grep -q "watching $np ranks" "$TMP/stderr" && break; sleep 0.1; done
    grep -q "watching $np ranks" "$TMP/stderr" || { cat "$TMP/stderr"; fail "no watching in 30 s"; }
    sleep "$1"
    kill -0 $guard 2>/dev/null || { cat "$TMP/stderr"; fail "mpiguard ended while the job was healthy"; }
    kill -INT $guard
    # A job mpiguard started gets 5 s to stop before it is killed; one attached to is let go at once.
    wait_ended $guard 4 || fail "mpiguard still watching 4 s after SIGINT"
    wait $guard
    local status=$?
    [ $status -eq 130 ] || { cat "$TMP/stderr"; fail "exit $status after SIGINT, expected 130"; }
    expect_stderr "stopped watching on signal 2; the job attached to runs on"
    python3 - "$report" <<'PY' || fail "report content"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["job"]["outcome"] == "released" and r["job"]["exit_status"] == -1, r["job"]
assert r["findings"] == [], r["findings"]
PY
}
# watch_healthy NAME: hang_attach/NAME.c built and run on $np ranks for 45 s, watched 30 s without a
# verdict (watch_then_release), then ended.
watch_healthy() {
    "mpicc.$flavor" -O2 -g -o "$TMP/$1" "$(dirname "$0")/hang_attach/$1.c" || fail "cannot build $1"
    $(launcher_for "$flavor") -n $np "$TMP/$1" 45 >"$TMP/job.out" 2>"$TMP/job.err" &
    job=$!
    sleep 1
    watch_then_release 30
    kill $job 2>/dev/null
    wait $job
}
# Whatever happens to the test, the job it started does not outlive it.
job=
trap '[ -n "$job" ] && kill -9 $job $(rank_pids) 2>/dev/null; rm -rf "$TMP"' EXIT

case $case in
found)
    start_job --seconds 120 --fault compute-loop --fault-rank 1 --fault-at 20
    expect_status 81 "attached to a hung job" -- timeout 150 "$MPIGUARD" hang -v --attach $job \
        --seed 7 --report "$report"
    expect_stderr "watching $np ranks (sampler ptrace"
    expect_stderr "mpiguard: ERROR HANG"
    # Stopped, not run to its end: well before its 120 s. (Its launcher's own status after the
    # SIGTERM is the launcher's business: Hydra's mpiexec was once seen to end 0 on it.)
    wait $job
    [ $(( $(date +%s) - job_started )) -lt 110 ] || fail "the hung job ran to its end: it was not stopped"
    sleep 0.5
    # A zombie is gone (this container's init does not reap the ranks mpirun leaves to it).
    for pid in $(rank_pids); do
        state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)
        [ -z "$state" ] || [ "$state" = Z ] || fail "rank process $pid left ($state) after the job was stopped"
    done
    python3 - "$report" <<'PY' || { cat "$TMP/stderr" >&2; fail "report content"; }
import json, sys
r = json.load(open(sys.argv[1]))
assert r["job"]["outcome"] == "stopped" and len(r["job"]["ranks"]) == 4, r["job"]
assert len(r["findings"]) == 1, r["findings"]
ev = r["findings"][0]["evidence"]
assert ev["hang_type"] == "computation" and ev["faulty_ranks"] == [1], ev
assert ev["per_rank"][1]["function"] == "fault_compute_loop", ev["per_rank"][1]
PY
    pass "$flavor: attached to a running job, its computation hang found in rank 1 and the job stopped"
    ;;
looping)
    start_job --seconds 120 --fault compute-loop --fault-rank 1 --fault-at 0
    sleep 1
    attached=$(date +%s)
    expect_status 81 "attached to a job already hung" -- timeout 60 "$MPIGUARD" hang -v --attach $job \
        --seed 7 --report "$report"
    took=$(( $(date +%s) - attached ))
    [ $took -le 45 ] || { cat "$TMP/stderr" >&2; fail "found after $took s, more than 45"; }
    expect_stderr "rank 1 computes outside MPI"
    # the halt rule, verifying once the model is built as often as before, says which it was
    awk '/the model is built/ {built = 1} /outside it, before the model was built/ && built {bad = 1}
        END {exit bad}' "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "'before the model was built' said after it was"; }
    wait $job
    python3 - "$report" <<'PY' || { cat "$TMP/stderr" >&2; fail "report content"; }
import json, sys
r = json.load(open(sys.argv[1]))
assert r["job"]["outcome"] == "stopped", r["job"]
ev = r["findings"][0]["evidence"]
assert ev["hang_type"] == "computation" and ev["faulty_ranks"] == [1], ev
assert ev["per_rank"][1]["function"] == "fault_compute_loop", ev["per_rank"][1]
PY
    pass "$flavor: attached to a job whose rank 1 already loops, found in $took s, rank 1 named"
    ;;
computing)
    watch_healthy compute_gaps
    pass "$flavor: a healthy job computing most of the time watched 30 s: no hang"
    ;;
released)
    start_job --seconds 60
    watch_then_release 3
    for pid in $(rank_pids); do
        state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)
        [ -n "$state" ] && [ "$state" != Z ] || fail "rank process $pid gone: the job attached to was stopped"
        [ "$state" != t ] && [ "$state" != T ] || fail "rank process $pid left stopped ($state)"
    done
    wait_ended $job 120 || fail "the job did not end within 120 s"
    wait $job
    status=$?
    [ $status -eq 0 ] || { cat "$TMP/job.err"; fail "the job attached to ended with $status"; }
    grep -q "^stencil: $np ranks" "$TMP/job.out" || fail "the job did not run to its end"
    pass "$flavor: SIGINT let go of the job attached to at once (exit 130); it ran to its end untouched"
    ;;
healthy)
    watch_healthy barrier_loop
    expect_stderr "the model is built"
    pass "$flavor: a healthy job always inside MPI_Barrier watched 30 s: no hang, the model built"
    ;;
blind)
    gcc -O1 -o "$TMP/sleeper" "$(dirname "$0")/observe/sleeper.c" || fail "cannot build the sleeper"
    $(launcher_for "$flavor") -n 3 "$app" --seconds 120 : -n 1 "$TMP/sleeper" 120 >"$TMP/job.out" 2>"$TMP/job.err" &
    job=$!
    sleep 1
    expect_status 81 "attached to a job with a rank that is not MPI" -- timeout 150 "$MPIGUARD" hang -v \
        --attach $job --seed 7 --report "$report"
    grep -n "is not observed" "$TMP/stderr" | grep -q "rank 3 (pid [0-9]*) is not observed: not an MPI program" ||
        { cat "$TMP/stderr" >&2; fail "rank 3 not named as not MPI"; }
    # Named while watching starts (once its loader is done), not at the end.
    [ "$(grep -n "is not observed" "$TMP/stderr" | cut -d: -f1)" -lt "$(grep -n "ERROR HANG" "$TMP/stderr" | cut -d: -f1)" ] ||
        fail "rank 3 named only after the verdict"
    expect_stderr "hang: ranks 0-2 wait in MPI_Init"
    wait $job
    python3 - "$report" <<'PY' || { cat "$TMP/stderr" >&2; fail "report content"; }
import json, sys
r = json.load(open(sys.argv[1]))
obs = {o["rank"]: o for o in r["observation"]}
assert sorted(obs) == [0, 1, 2, 3], obs
assert all(obs[k]["observed"] and obs[k]["sampler"] == "ptrace" and obs[k]["cause"] == "observed" for k in (0, 1, 2)), obs
assert not obs[3]["observed"] and obs[3]["sampler"] is None and obs[3]["cause"] == "not_mpi", obs[3]
assert r["findings"][0]["evidence"]["faulty_ranks"] == [3], r["findings"][0]["evidence"]
PY
    pass "$flavor: attached to a job with a rank that is not MPI, rank 3 named not observed (not_mpi)"
    ;;
*)
    fail "unknown case $case"
    ;;
esac
