#!/usr/bin/env python3
"""Figures of bench/hang/real_runs.sh's TSV against issue 29's targets: ParaStack's metrics for
mpiguard hang and, on the same runs, for the timeout baseline.
AC_h: faulty runs detected with the right type (a rank stopped or spinning inside MPI, and a deadlock
at start, are communication hangs; outside MPI and the compute loop computation hangs; kill -9 a dead
rank); culprit: faulty runs whose report blames exactly the faulty rank, and those blaming
another (wrong), the target's share on the single-rank faults (all but the deadlock); false alarms: correct runs reported as hung; delay: from the fault to the detection
(fault_delay), median and p90, and for the hangs from the first call (deadlock-start) the largest.
A faulty run whose fault never fired (a master-worker worker that got no task after its fault time)
is a correct run: a hang reported in it is a false alarm. An external fault whose rank was never
caught where the fault wanted it is no run at all: such runs are counted apart. The misses listed
(and false alarms) are is_miss's; `summarize.py --miss TSV RUN` exits 0 when RUN is one
(real_runs.sh keeps such a run's directory)."""
import csv, statistics, sys

WANT = {"stop-in": "communication", "spin-in": "communication", "deadlock-start": "communication",
        "stop-out": "computation", "spin-out": "computation", "compute-loop": "computation",
        "kill9": "dead-rank"}
EXTERNAL = ("stop-in", "stop-out", "spin-in", "spin-out", "kill9")



def is_miss(r):
    """A run the batch got wrong: a faulty run not found, of the wrong type or with another
    culprit (a deadlock, two-sided, may name none, or more ranks than its faulty one), or a correct
    one (or one whose example fault never fired) reported as hung. An external fault that never
    caught its rank is no run, and no miss."""
    if r["type"] == "faulty" and r["fault_fired"] != "-":
        named = r["named"].split(",")
        right = named == [r["fault_rank"]] or (
            r["fault"] == "deadlock-start" and (named == ["-"] or r["fault_rank"] in named))
        return r["found"] != "1" or r["hang_type"] != WANT[r["fault"]] or not right
    return r["found"] == "1" and (r["type"] == "correct" or r["fault"] not in EXTERNAL)


if sys.argv[1] == "--miss":
    # bench/hang/real_runs.sh: exit 0 when run RUN of the TSV is a miss
    sys.exit(0 if any(is_miss(r) for r in csv.DictReader(open(sys.argv[2]), delimiter="\t")
                      if r["run"] == sys.argv[3]) else 1)
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
unfired = [r for r in rows if r["type"] == "faulty" and r["fault_fired"] == "-"]
uncaught = [r for r in unfired if r["fault"] in EXTERNAL]
faulty = [r for r in rows if r["type"] == "faulty" and r not in unfired]
correct = [r for r in rows if r["type"] == "correct"] + [r for r in unfired if r not in uncaught]


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def figures(rows_f, rows_c, label):
    hit = [r for r in rows_f if r["found"] == "1"]
    right_type = [r for r in hit if r["hang_type"] == WANT[r["fault"]]]
    delays = [float(r["fault_delay"]) for r in hit]
    named = [r for r in hit if r["named"] == r["fault_rank"]]
    wrong = [r for r in hit if r["named"] != "-" and r["fault_rank"] not in r["named"].split(",")]
    fp = [r for r in rows_c if r["found"] == "1"]
    early = [d for d in delays if d < 0]
    ac_h = f"{len(right_type) / len(rows_f):.3f}" if rows_f else "-"
    culprit = f"{len(named) / len(rows_f):.3f}" if rows_f else "-"
    median = f"{statistics.median(delays):.1f}" if delays else "-"
    p90 = f"{pct(delays, 0.9):.1f}" if delays else "-"
    print(f"| {label} | {len(rows_f)} | {ac_h} | {culprit} | {len(wrong)} | {len(rows_c)} | "
          f"{len(fp)} | {len(early)} | {median} | {p90} | {max(delays) if delays else '-'} |")


print("| runs | faulty | AC_h (right type) | culprit named | wrong culprit | correct | false alarms | "
      "before the fault | delay median s | delay p90 s | delay max s |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
figures(faulty, correct, "all")
# a deadlock is two-sided: the culprit target is for the faults of one rank
figures([r for r in faulty if r["fault"] != "deadlock-start"], [], "single-rank faults")
for key, values in (("sampler", ("shm", "ptrace")), ("mpi", ("openmpi", "mpich"))):
    for v in values:
        figures([r for r in faulty if r[key] == v], [r for r in correct if r[key] == v], f"{key} {v}")
programs = sorted({r["program"] for r in rows})
for p in programs:
    figures([r for r in faulty if r["program"] == p], [r for r in correct if r["program"] == p], p)
for np in sorted({r["np"] for r in rows}, key=int):
    figures([r for r in faulty if r["np"] == np], [r for r in correct if r["np"] == np], f"{np} ranks")
for fault in WANT:
    figures([r for r in faulty if r["fault"] == fault], [], f"fault {fault}")
figures([r for r in faulty if r["decided_by"] == "first-call-rule"], [], "decided by the first-call rule")

print()
for r in [r for r in faulty + correct if is_miss(r)]:
    what = f"{r['fault']} of rank {r['fault_rank']}" if r in faulty else "correct: false alarm"
    print(f"run {r['run']} ({r['mpi']} {r['program']} {r['np']} ranks, {r['sampler']}, {what}): "
          f"exit {r['exit']}, found {r['found']}, {r['hang_type']}, named {r['named']}, "
          f"by {r['decided_by']}, delay {r['fault_delay']}")
if unfired:
    print(f"faulty runs whose example fault never fired, counted as correct runs: "
          f"{', '.join(r['run'] for r in unfired if r not in uncaught) or 'none'}")
if uncaught:
    print(f"faulty runs whose rank was never caught where the fault wanted it, not counted: "
          f"{', '.join(r['run'] for r in uncaught)}")
loads = [float(r["load1"]) for r in rows]
if loads:
    print(f"load average at the runs' ends: {min(loads):.0f}-{max(loads):.0f}, "
          f"median {statistics.median(loads):.0f}")
print()
print("| timeout baseline (I s, K) | AC_h | false alarms (correct runs) | fired before the fault (faulty runs) |")
print("|---|---|---|---|")
for col in ("timeout_0.4_5", "timeout_0.4_10", "timeout_0.8_5", "timeout_0.8_10"):
    det = [r for r in faulty if r[col] != "none" and float(r[col]) >= float(r["fault_at"])]
    early = [r for r in faulty if r[col] != "none" and float(r[col]) < float(r["fault_at"])]
    fp = [r for r in correct if r[col] != "none"]
    _, i, k = col.split("_")
    print(f"| {i}, {k} | {len(det) / max(1, len(faulty)):.3f} | {len(fp)}/{len(correct)} | "
          f"{len(early)}/{len(faulty)} |")
