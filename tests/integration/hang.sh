#!/bin/bash
# `mpiguard hang` on a real job. With a fault: exit 81, one hang finding of the right type naming the
# faulty rank (computation; communication under shm where what the ranks publish tells it) or
# none (communication), per-rank states consistent with the fault, the
# job stopped and nothing of it left. The fault comes at 20 s, once the model has learnt the healthy
# job (docs/hang.md: a hang before that is missed); the run would end at 35 s, so the fault stops it
# for good (a master-worker job keeps progressing with its other workers until then: no hang yet).
# The 15 s between the two leave room for a verification slowed by a loaded machine: with 7 s, a
# rank that does not depend on the faulty one reached its end before the verdict (CI, ptrace). Without a
# fault (FAULT=none): the job runs to its end untouched, exit 0, no finding. Either way the report says
# what watching cost (ptrace: the time ranks were stopped; mpiguard's CPU).
# Usage: hang.sh FLAVOR EXAMPLE FAULT SAMPLER NRANKS
. "$(dirname "$0")/../lib.sh"
flavor=$1 example=$2 fault=$3 sampler=$4 np=$5
faulty=1
app="$BUILD/examples/$flavor/$example"
report="$TMP/hang.json"
if [ "$fault" = none ]; then
    expect_status 0 "healthy $example" -- "$MPIGUARD" hang -v --sampler "$sampler" --seed 7 --report "$report" -- $(launcher_for "$flavor") -n "$np" "$app" --seconds 20
    expect_stderr "no hang found"
    grep -q "^$example: $np ranks" "$TMP/stdout" || fail "the healthy job did not run to its end"
else
    expect_status 81 "$fault in $example" -- "$MPIGUARD" hang -v --sampler "$sampler" --seed 7 --report "$report" -- $(launcher_for "$flavor") -n "$np" "$app" --seconds 35 --fault "$fault" --fault-rank $faulty --fault-at 20
    expect_stderr "mpiguard: ERROR HANG"
fi
token=$(grep -o 'MPIGUARD_JOB_TOKEN[= ][0-9a-f]*' "$TMP/stderr" | head -1 | cut -c20-)
if [ "$sampler" = ptrace ]; then
    # the ranks publish their segments: the model's samples are read there, a stop only before
    # (in MPI_Init), from -v's lines by rank (src/agent/rank_probe.c)
    sum_of() { sed -n "s/.*$1.*/\1/p" "$TMP/stderr" | paste -sd+ | bc; }
    unstopped=$(sum_of 'was read from its segment without a stop in \([0-9]*\) model samples')
    stopped=$(sum_of 'ptrace held rank [0-9]* [0-9.]* ms in \([0-9]*\) model samples')
    [ "${unstopped:-0}" -ge 10 ] && [ "${unstopped:-0}" -gt "${stopped:-0}" ] ||
        { cat "$TMP/stderr" >&2; fail "model samples: ${unstopped:-0} from the segments, ${stopped:-0} by a stop"; }
fi
python3 - "$report" "$fault" "$faulty" "$np" "$sampler" <<'PY' || { cat "$TMP/stderr" >&2; fail "report content"; }
import json, sys
r = json.load(open(sys.argv[1])); fault, faulty, np = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sampler = sys.argv[5]
assert r["tool"] == "hang" and len(r["job"]["ranks"]) == np, r["job"]
cost = r["tool_data"]["monitor_cost"]
assert cost["rank_readings"] > 0 and 0 < cost["monitor_cpu_s"] < cost["watched_s"], cost
if sampler == "ptrace":
    # the ranks' segments answer the model's samples: the scans may stop none of them either
    assert 0 <= cost["frozen_s"] <= cost["held_s"] < cost["watched_s"], cost
else:
    assert cost["frozen_s"] == 0 and cost["held_s"] == 0, cost
if fault == "none":
    assert r["findings"] == [] and r["job"]["outcome"] == "completed", r
    sys.exit(0)
assert len(r["findings"]) == 1, r["findings"]
f = r["findings"][0]; ev = f["evidence"]
assert f["kind"] == "hang" and r["job"]["outcome"] == "stopped", (f["kind"], r["job"])
want = "communication" if fault == "deadlock" else "computation"
assert ev["hang_type"] == want, (ev["hang_type"], want)
states = {e["rank"]: e["state"] for e in ev["per_rank"]}
assert len(states) == np, states
if want == "computation":
    assert ev["faulty_ranks"] == [faulty], ev["faulty_ranks"]
    assert states[faulty] == "OUT_MPI", states
    assert all(s == "IN_MPI" for k, s in states.items() if k != faulty), states
else:
    # shm: a deadlocked rank that never reaches the collective the others wait in is named by
    # what the ranks published (docs/hang.md "The culprit"); its receive from any source makes it
    # wait on everyone, so where no collective tells, nobody is: never another rank
    assert ev["faulty_ranks"] in ([], [faulty]), ev["faulty_ranks"]
    assert not ev["faulty_ranks"] or ev["culprit"]["reason"] in ("behind", "waited-on"), ev
    # The whole per-rank evidence (stacks included) on failure: a rank seen outside MPI in a
    # deadlock is a sampler's misreading worth reading frame by frame.
    assert all(s == "IN_MPI" for s in states.values()), json.dumps(ev["per_rank"], indent=1)
    fn = {e["rank"]: e["function"] for e in ev["per_rank"]}
    assert fn[faulty] == "MPI_Recv", fn
if fault == "compute-loop":
    assert ev["per_rank"][faulty]["function"] == "fault_compute_loop", ev["per_rank"][faulty]
    assert any("fault_compute_loop" in n["label"] for n in f["graph"]["nodes"]), f["graph"]
PY
sleep 0.5
[ -z "$(token_processes "$token")" ] || fail "processes of the job left: $(token_processes "$token")"
pass "hang $flavor $example $fault ($sampler, $np ranks)"
