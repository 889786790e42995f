#!/usr/bin/env python3
"""Figures of bench/hang/real_runs.sh's TSV: ParaStack's metrics for mpiguard hang and, on the same
runs, for the timeout baseline. AC_h: faulty runs detected (with the right hang type); FP: correct runs
reported as hung; delay: from the fault to the detection: the fault_delay column where the TSV has it
(measured from the moment the faulty rank fired, launch excluded; in TSVs written before 2026-11-26
16:30 UTC it is short by the time mpiguard took to find the ranks, see git history of docs/hang-measurements.md), else detection
time minus the fault time (which counts from MPI start, so that delay includes the launch); before
the fault: a detection whose fault_delay is negative (or, without it, whose detection time is before
the fault time); AC_f / PR_f: faulty-rank identification of computation hangs ("-" where no
computation hang was found). A faulty run whose fault never fired (a master-worker worker that got no
task after its fault time; the fault_fired column, or for older TSVs the kept stderr in TSV's .logs
directory) is a correct run: a hang reported in it would be a false alarm."""
import csv, os, re, statistics, sys

tsv = sys.argv[1]
rows = list(csv.DictReader(open(tsv), delimiter="\t"))

def fault_fired(r):
    if "fault_fired" in r:
        return r["fault_fired"] != "-"
    log = f"{tsv[:-len('.tsv')]}.logs/run-{r['run']}.err"
    if not os.path.exists(log):
        return True
    return re.search(r"^[a-z_]*: fault [a-z-]* fires in rank", open(log).read(), re.M) is not None

unfired = [r for r in rows if r["type"] == "faulty" and not fault_fired(r)]
faulty = [r for r in rows if r["type"] == "faulty" and r not in unfired]
correct = [r for r in rows if r["type"] == "correct"] + unfired

def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")

def delay(r):
    if r.get("fault_delay") not in (None, "", "-"):
        return float(r["fault_delay"])
    return float(r["detected_at"]) - float(r["fault_at"])

def mpiguard(rows_f, rows_c, label):
    want = lambda r: "communication" if r["fault"] == "deadlock" else "computation"
    hit = [r for r in rows_f if r["found"] == "1"]
    right_type = [r for r in hit if r["hang_type"] == want(r)]
    delays = [delay(r) for r in hit]
    comp = [r for r in hit if want(r) == "computation" and r["hang_type"] == "computation"]
    exact = [r for r in comp if r["faulty_ranks"] == r["fault_rank"]]
    named = sum(len(r["faulty_ranks"].split(",")) for r in comp if r["faulty_ranks"] != "-")
    correct_named = sum(1 for r in comp if r["fault_rank"] in r["faulty_ranks"].split(","))
    fp = [r for r in rows_c if r["found"] == "1"]
    early = [r for r in hit if delay(r) < 0] if all(
        r.get("fault_delay") not in (None, "", "-") for r in hit) else [
        r for r in hit if float(r["detected_at"]) < float(r["fault_at"])]
    ac_f = f"{len(exact)/len(comp):.3f}" if comp else "-"
    pr_f = f"{correct_named/named:.3f}" if named else "-"
    print(f"| {label} | {len(rows_f)} | {len(right_type)/max(1,len(rows_f)):.3f} | "
          f"{len(rows_c)} | {len(fp)} | {len(early)} | "
          f"{statistics.median(delays) if delays else float('nan'):.1f} | {pct(delays, 0.9):.1f} | "
          f"{ac_f} | {pr_f} |")

print("| runs | faulty | AC_h (right type) | correct | false alarms | before the fault | delay median s | delay p90 s | AC_f | PR_f |")
print("|---|---|---|---|---|---|---|---|---|---|")
mpiguard(faulty, correct, "all")
for key, values in (("sampler", ("shm", "ptrace")), ("mpi", ("openmpi", "mpich"))):
    for v in values:
        mpiguard([r for r in faulty if r[key] == v], [r for r in correct if r[key] == v], f"{key} {v}")
for np in sorted({r["np"] for r in rows}, key=int):
    mpiguard([r for r in faulty if r["np"] == np], [r for r in correct if r["np"] == np], f"{np} ranks")
for fault in ("compute-loop", "sleep", "stop", "deadlock"):
    mpiguard([r for r in faulty if r["fault"] == fault], [], f"fault {fault}")
# built_at (later TSVs): when the model was first built; a fault before it is learnt as normal.
def built_before_fault(r):
    return r.get("built_at", "never") not in ("never", "") and float(r["built_at"]) < float(r["fault_at"])
if any("built_at" in r for r in faulty):
    mpiguard([r for r in faulty if built_before_fault(r)], [], "fault after the model was built")
    mpiguard([r for r in faulty if not built_before_fault(r)], [], "fault while the model was building")

print()
if unfired:
    print(f"faulty runs whose fault never fired, counted as correct runs: "
          f"{', '.join(r['run'] for r in unfired)}")
loads = [float(r["load1"]) for r in rows if r.get("load1")]
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
    print(f"| {i}, {k} | {len(det)/max(1,len(faulty)):.3f} | {len(fp)}/{len(correct)} | {len(early)}/{len(faulty)} |")
