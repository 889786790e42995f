#!/bin/bash
# `mpiguard hang` on jobs that hang from their first MPI call, and on healthy jobs that only look
# as if (docs/hang.md "Hangs from the first call"). Usage: hang_start.sh CASE FLAVOR SAMPLER
#   send-send, recv  hung from the start: reported by the first-call rule within 30 s of watching,
#                    exit 81, a communication hang with every rank named in the MPI call it waits in
#   poll             hung from the start with rank 0 polling MPI_Test for good (issue 29, run
#                    51035): reported as send-send and recv are
#   late-start       6 s asleep before MPI_Init and 6 s computing after it: no alarm, exit 0
#   poll-slow        rank 0 polls while rank 1 computes 8 s before it sends: no alarm
#   poll-long        the same with 25 s of computing, past the rule's still period: no alarm (a
#                    computing rank is not held)
#   poll-transfer    rank 0 polls for a message rank 2 sends once one strided message of ~25 s
#                    has gone to rank 3, rank 1 waits in the first collective: no alarm
#   slow-first       rank 0 computes 8 s while the others wait in the first collective: no alarm
#                    (20 s was taken once for a computation hang by the model, which had learnt
#                    that start: docs/hang.md "Hangs from the first call")
#   stop-init        late-start with rank 2 SIGSTOPped asleep before MPI_Init, where it publishes
#                    nothing (seen by its process state: T), the others waiting in MPI_Init
#   stop-first       slow-first with rank 0 SIGSTOPped while it computes, the others waiting in the
#                    first collective: reported by the first-call rule or by the model (which rank
#                    0's computing lets build) within 30 s of watching, exit 81, the stopped rank
#                    the culprit, outside MPI
. "$(dirname "$0")/../lib.sh"
case=$1 flavor=$2 sampler=$3 np=4
"mpicc.$flavor" -g -O1 -o "$TMP/first_call" "$(dirname "$0")/hang_start/first_call.c" ||
    fail "cannot build the $flavor program"
report="$TMP/hang.json"
program_case=${case/stop-init/late-start}
program_case=${program_case/stop-first/slow-first}
run=("$MPIGUARD" hang -v --sampler "$sampler" --seed 5 --report "$report" -- $(launcher_for "$flavor") -n $np "$TMP/first_call" "$program_case")
case $case in
stop-init | stop-first)
    stopped=2
    [ $case = stop-init ] || stopped=0
    "${run[@]}" >"$TMP/stdout" 2>"$TMP/stderr" &
    guard=$!
    await_rank $guard $np $stopped || { kill -INT $guard; wait $guard; cat "$TMP/stderr" >&2; fail "rank $stopped was not found"; }
    if [ $case = stop-init ]; then
        kill -STOP "$RANK_PID"
        sleep 0.2
        # asleep in sleep(6) before MPI_Init: clock_nanosleep or nanosleep
        read -r syscall _ <"/proc/$RANK_PID/syscall"
        [ "$syscall" = 230 ] || [ "$syscall" = 35 ] ||
            { kill -CONT "$RANK_PID"; kill -INT $guard; wait $guard; fail "rank $stopped was not stopped before MPI_Init (syscall $syscall)"; }
    else
        catch_rank "$TOKEN" $np $stopped "$RANK_PID" out ||
            { kill -INT $guard; wait $guard; fail "rank $stopped never caught computing"; }
    fi
    expect_verdict $guard 120 "the stop of rank $stopped"
    # stop-first: rank 0 computed outside MPI before its stop, which lets the model build; its
    # suspicion may come before the rule's 15 s (14.4 s at 6c80bb7), and either path must name rank 0
    if [ $case = stop-first ]; then
        expect_stderr "verifying without the model\|a hang is suspected"
    else
        expect_stderr "verifying without the model"
    fi
    expect_stderr "culprit: .*rank $stopped is stopped (state T) outside MPI"
    ;;
send-send | recv | poll)
    expect_status_within 120 81 "$case hung from the start" "$TMP/first_call" -- "${run[@]}"
    expect_stderr "verifying without the model"
    expect_stderr "mpiguard: ERROR HANG"
    ;;
late-start | slow-first | poll-slow | poll-long | poll-transfer)
    expect_status_within 200 0 "healthy $case" "$TMP/first_call" -- "${run[@]}"
    expect_stderr "no hang found"
    grep -q "^first_call: $case done on $np ranks" "$TMP/stdout" || fail "the job did not run to its end"
    ! grep -q "verifying without the model" "$TMP/stderr" || fail "the first-call rule suspected a healthy start"
    # a rank blocked in its first collective while a sibling polls has reached mpiguard
    ! grep -q "is sampled by ptrace from now on\|is not observed" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "a rank read by shm was taken for unobserved"; }
    exit 0
    ;;
*) fail "unknown case $case" ;;
esac
python3 - "$report" "$case" "$np" "$sampler" <<'PY' || { cat "$TMP/stderr" >&2; fail "report content"; }
import json, sys
r = json.load(open(sys.argv[1])); case, np, sampler = sys.argv[2], int(sys.argv[3]), sys.argv[4]
assert len(r["findings"]) == 1, r["findings"]
ev = r["findings"][0]["evidence"]
fn = {e["rank"]: (e["state"], e["function"]) for e in ev["per_rank"]}
assert sorted(fn) == list(range(np)), fn
assert ev["model"]["decided_by"] == "first-call rule" or case == "stop-first", ev["model"]
assert ev["detection_time_s"] <= 30, ev["detection_time_s"]
if case.startswith("stop-"):
    stopped, waits_in = (2, "MPI_Init") if case == "stop-init" else (0, "MPI_Allreduce")
    c = ev["culprit"]
    assert ev["hang_type"] == "computation" and ev["faulty_ranks"] == [stopped], ev
    assert c["ranks"] == [stopped] and c["reason"] == "stopped", c
    assert set(c["waited_on_directly_by"]) == set(range(np)) - {stopped}, c
    assert fn[stopped][0] == "OUT_MPI", fn
    assert all(fn[k] == ("IN_MPI", waits_in) for k in range(np) if k != stopped), fn
    print("culprit:", c["evidence"], "after", ev["detection_time_s"], "s of watching")
    sys.exit(0)
assert ev["hang_type"] == "communication", ev
# recv: rank 0 never reaches the barrier the others wait in, as the ranks publish it under either
# sampler (docs/hang.md "The culprit"). send-send: every rank alike.
want_culprits = [0] if case == "recv" else []
# poll: ranks 0 and 1 never reach the collective the others wait in, and wait on each other
assert ev["faulty_ranks"] == want_culprits or (case == "poll" and set(ev["faulty_ranks"]) <= {0, 1}), ev["faulty_ranks"]
assert not want_culprits or ev["culprit"]["reason"] == "behind", ev["culprit"]
if case == "send-send":
    want = {k: ("IN_MPI", "MPI_Send") for k in range(np)}
elif case == "poll":
    want = {k: ("IN_MPI", ("MPI_Test", "MPI_Recv")[k] if k < 2 else "MPI_Allreduce") for k in range(np)}
else:
    want = {k: ("IN_MPI", "MPI_Recv" if k == 0 else "MPI_Barrier") for k in range(np)}
assert fn == want, fn
PY
[ -z "$(leftovers "$TMP/first_call")" ] || fail "processes of the job left"
