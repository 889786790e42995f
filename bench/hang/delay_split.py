#!/usr/bin/env python3
"""Where the delay of bench/hang/real_runs.sh's faulty runs goes (docs/hang-measurements.md "Where
the delay goes"), from each found run's TSV row and its `-v` stderr (TSV.logs/run-ID.err):
  bench/hang/delay_split.py TSV [REGEX]   (REGEX on "program fault decided_by": the runs shown)
Times are mpiguard's clock (seconds since watching began), but for the delay. trigger: when the
suspicion verified began (the model's last "suspected at", or the "since" of the rule that
decided); verify: from it to the verdict (a rule's includes the still period it waits for);
to_trigger: delay - verify, from the fault to the trigger plus the stacks taken after the verdict;
runs_on: a master-worker job with a faulty worker goes on with the others until its time is up,
seconds - fault_at after the fault at least, and hangs only then (0 for other runs); gaps: the
verification scans said stretched (scan number: seconds since the one before). Then a table of
medians per kind, from the fault and from the hang (delay - runs_on), and how many of its runs
are at or above the p90 of all."""
import csv, re, statistics, sys

RULE_SINCE = {"first-call-rule": r"completed since ([0-9.]+) s",
              "halt-rule": r"completed since ([0-9.]+) s",
              "held-in-poll-rule": r"polling call since ([0-9.]+) s"}


COLUMNS = ["run", "program", "mpi", "np", "sampler", "fault", "decided_by", "fault_delay", "load1"]
PARTS = ["runs_on", "built", "trigger", "verdict", "verify", "to_trigger", "gaps"]


def split(r, err):
    def last(pattern):
        return ([float(x) for x in re.findall(pattern, err)] or [None])[-1]
    verdict = last(r"hang after ([0-9.]+) s")
    trigger = last(RULE_SINCE.get(r["decided_by"], r"suspected at ([0-9.]+) s"))
    verify = verdict - trigger if verdict is not None and trigger is not None else None
    worker = r["program"] == "master_worker" and r["fault_rank"] != "0" and r["fault"] != "kill9"
    gaps = re.findall(r"scan (\d) came ([0-9.]+) s", err)
    return {"runs_on": int(r["seconds"]) - int(r["fault_at"]) if worker else 0,
            "built": last(r"model is built \(([0-9.]+) s"), "trigger": trigger, "verdict": verdict,
            "verify": verify,
            "to_trigger": None if verify is None else float(r["fault_delay"]) - verify,
            "gaps": ",".join(":".join(g) for g in gaps)}


def fmt(x):
    return "-" if x is None else f"{x:.1f}" if isinstance(x, float) else str(x)


def median(runs, key):
    values = [s[key] for _, s in runs if s[key] is not None]
    return fmt(statistics.median(values) if values else None)


tsv = sys.argv[1]
show = re.compile(sys.argv[2] if len(sys.argv) > 2 else "")
print("\t".join(COLUMNS + PARTS))
kinds = {}
for r in csv.DictReader(open(tsv), delimiter="\t"):
    if r["type"] != "faulty" or r["found"] != "1" or r["fault_delay"] == "-":
        continue
    try:
        err = open(f"{tsv[:-4]}.logs/run-{r['run']}.err").read()
    except OSError:
        continue
    s = split(r, err)
    kind = "master_worker, faulty worker" if s["runs_on"] else r["fault"]
    kinds.setdefault(kind, []).append((float(r["fault_delay"]), s))
    if show.search(f"{r['program']} {r['fault']} {r['decided_by']}"):
        print("\t".join([r[c] for c in COLUMNS] + [fmt(s[k]) for k in PARTS]))
ranked = sorted(d for runs in kinds.values() for d, _ in runs)
p90 = ranked[min(len(ranked) - 1, int(0.9 * len(ranked)))] if ranked else 0
print(f"\n| kind | runs | delay median s | from the hang | at or above the p90 ({p90:.1f} s) | "
      "to trigger | verify |")
print("|---|---|---|---|---|---|---|")
for k, runs in sorted(kinds.items()):
    print(f"| {k} | {len(runs)} | {statistics.median(d for d, _ in runs):.1f} | "
          f"{statistics.median(d - s['runs_on'] for d, s in runs):.1f} | "
          f"{sum(d >= p90 for d, _ in runs)} | {median(runs, 'to_trigger')} | "
          f"{median(runs, 'verify')} |")
