#!/bin/bash
# The culprit of a hang with its chain of evidence (docs/hang.md "The culprit"), faults injected from
# outside the program: rank 2 of a healthy job is caught once the model has learnt it (FAULT_AT s
# after every rank is found) inside an MPI call or outside one, by its published state, and then
#   stop-in, stop-out  left SIGSTOPped there;
#   spin-in            made to spin in a SIGUSR2 handler there (tests/apps/spin_on_signal.c);
# or, from inside, compute-loop: the example's own endless loop outside MPI, FAULT_AT s after its
# MPI_Init, the others waiting in their next call (culprit: outside MPI). One that comes before
# the model is built is found by the halt rule (run 291009 of issue 29: found 148 s after it).
# Asserts exit 81, rank 2 the one faulty rank and the culprit with the reason the fault gives, every
# other rank waiting on it (directly or through others), and for the stencil its grid neighbours
# (ranks 0 and 3 on 2x2) waiting on it directly, and for master_worker's master the workers'
# "MPI_Recv, source 0, tag T"; the banner says the chain; nothing of the job left.
# A FAULT_AT of 2 injects the fault before the model is built (4-8 s of samples); a compute-loop
# then comes in the job's first seconds, before the first-call rule's 3 s scans have seen the
# counters move twice (issue 29: learnt as the job's start).
# RANK (2 by default) is the faulty one: 0 is the master of master_worker, polling its receive
# from any source with MPI_Test.
# SAMPLER (shm by default) is hang's --sampler: under ptrace the ranks publish their waits all the
# same (mpiguard started the job), and the chain names them.
# Usage: [SAMPLER=ptrace] hang_culprit.sh FLAVOR EXAMPLE CASE NRANKS [FAULT_AT [RANK]]
. "$(dirname "$0")/../lib.sh"
flavor=$1 example=$2 case=$3 np=$4 sampler=${SAMPLER:-shm}
faulty=${6:-2}
fault_at=${5:-${FAULT_AT:-12}}
report="$TMP/hang.json"
# A master-worker job goes on with its other workers until its end, and hangs only then.
seconds=120
[ "$example" != master_worker ] || seconds=$((fault_at + 25))
[ "${case%-*}" != spin ] || export LD_PRELOAD="$BUILD/tests/apps/libspin_on_signal.so"
inside=()
[ "$case" != compute-loop ] || inside=(--fault compute-loop --fault-rank "$faulty" --fault-at "$fault_at")
"$MPIGUARD" hang -v --sampler "$sampler" --seed 7 --report "$report" -- $(launcher_for "$flavor") -n "$np" \
    "$BUILD/examples/$flavor/$example" --seconds $seconds "${inside[@]}" >"$TMP/stdout" 2>"$TMP/stderr" &
guard=$!
unset LD_PRELOAD

await_rank $guard "$np" "$faulty" || { kill -INT $guard; wait $guard; cat "$TMP/stderr" >&2; fail "rank $faulty was not found"; }
token=$TOKEN faulty_pid=$RANK_PID
if [ "$case" = compute-loop ]; then
    until grep -q "fault compute-loop fires" "$TMP/stderr"; do
        kill -0 $guard 2>/dev/null || { cat "$TMP/stderr" >&2; fail "mpiguard ended before the fault"; }
        sleep 0.2
    done
else
    sleep "$fault_at"
    kill -0 $guard 2>/dev/null || { cat "$TMP/stderr" >&2; fail "mpiguard ended before the fault"; }
    inject_fault "$token" "$np" "$faulty" "$faulty_pid" "$case" || { kill -INT $guard; wait $guard; fail "rank $faulty never caught ${case#*-} MPI"; }
fi
faulted=$SECONDS
expect_verdict $guard 150 "the $case of rank $faulty"
expect_stderr "culprit: .*rank $faulty "
fired=$(sed -n 's/^[a-z_]*: fault compute-loop fires in rank [0-9]* at \([0-9.]*\)$/\1/p' "$TMP/stderr")
python3 - "$report" "$case" "$faulty" "$np" "$example" "$sampler" "${fired:-0}" <<'PY' || { cat "$TMP/stderr" >&2; fail "report content"; }
import json, sys
r = json.load(open(sys.argv[1])); case, faulty, np, example = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
assert len(r["findings"]) == 1 and r["job"]["outcome"] == "stopped", (r["findings"], r["job"])
ev = r["findings"][0]["evidence"]
assert ev["sampler"] == sys.argv[6], ev["sampler"]
show = json.dumps({k: ev[k] for k in ("hang_type", "faulty_ranks", "culprit") if k in ev}, indent=1)
assert ev["faulty_ranks"] == [faulty], show
c = ev["culprit"]
want = {"stop-in": "stopped", "stop-out": "stopped", "spin-in": ("spinning", "in-handler"),
        "compute-loop": "outside-mpi"}[case]
assert c["ranks"] == [faulty] and c["reason"] in want, show
# every rank once, the culprit too when it waits in MPI itself (spin-in, stop-in)
ranks = r["findings"][0]["ranks"]
assert len(ranks) == len(set(ranks)), ranks
# a loop that came before the model was built is the halt rule's: a model built on it learnt it
fault_s = float(sys.argv[7]) - (r["findings"][0]["evidence"]["detected_at_unix"] - ev["detection_time_s"])
model = ev["model"]
assert case != "compute-loop" or model["decided_by"] == "halt rule" or 0 < model["built_at_s"] < fault_s, \
    (fault_s, model)
waiting = set(c["waited_on_directly_by"]) | set(c["waited_on_through_others_by"])
assert waiting == set(range(np)) - {faulty}, show
if example == "stencil" and case != "stop-out":
    assert {0, 3} <= set(c["waited_on_directly_by"]), show
# the workers' published receive from the master, in the chain's words
if example == "master_worker" and faulty == 0:
    assert "(MPI_Recv, source 0, tag " in c["evidence"], show
waits = {e["rank"]: e.get("waits_for") for e in ev["per_rank"]}
assert all(waits[k] for k in range(np) if k != faulty), json.dumps(waits, indent=1)
PY
sleep 0.5
[ -z "$(token_processes "$token")" ] || fail "processes of the job left: $(token_processes "$token")"
pass "hang $flavor $example: $case of rank $faulty named with $(grep -o 'culprit: .*' "$TMP/stderr" | head -1 | cut -c1-200), $((SECONDS - faulted)) s after it"
