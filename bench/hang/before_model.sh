#!/bin/bash
# Issue 29, run 291009: a compute-loop fault that comes while the hang model is still being built
# (docs/hang-measurements.md "A fault before the model"). Open MPI cg, 4 ranks, shm sampler; rank
# 1 loops outside MPI FAULT_AT s after MPI_Init (default 8: the model is built after 12-19 s of
# samples on a loaded node), the others wait in MPI_Allreduce. Each run goes on every build in
# turn, so the builds meet the same load; prints one line per run and build (the fault's delay to
# the verdict, when the model was built, what decided, the rank named, the load; and where the
# delay went, for a halt rule's verdict: from the fault to the first scan that saw the halt, the
# halt the rule waits for, its verification's scans, and from the verdict to the finding written,
# the stacks taken: its detected_at_unix) and the median and largest delay per build side by side.
# FAULT_AT=2 puts the fault in the job's first seconds.
#   bench/hang/before_model.sh RUNS BUILD...   e.g. before_model.sh 3 /tmp/main-build build
set -u
runs=${1:?usage: before_model.sh RUNS BUILD...}
shift
fault_at=${FAULT_AT:-8}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1
tmp=$(mktemp -d /tmp/before-model.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
printf 'run\tbuild\tfault_delay\tbuilt_at\tdecided_by\tnamed\tload1\tto_seen\thalt\tverify\tstacks\n'
for ((i = 1; i <= runs; i++)); do
    for build in "$@"; do
        dir="$tmp/$i-$(basename "$build")"
        mkdir -p "$dir"
        timeout -s INT 400 "$build/bin/mpiguard" hang -v --sampler shm --seed "$i" \
            --report "$dir/r.json" --trace "$dir/trace" -- mpirun.openmpi -n 4 \
            "$build/examples/openmpi/cg" --seconds $((fault_at + 5)) --fault compute-loop \
            --fault-rank 1 --fault-at "$fault_at" >"$dir/out" 2>"$dir/err"
        fired=$(sed -n 's/^cg: fault compute-loop fires in rank 1 at \([0-9.]*\)$/\1/p' "$dir/err")
        python3 - "$dir/r.json" "${fired:-0}" "$i" "$build" "$dir/trace" \
            "$(cut -d' ' -f1 /proc/loadavg)" "$dir/err" <<'PY'
import json, re, sys
report, fired, run, build, trace, load, err = sys.argv[1:]
built = next((l.split()[2] for l in open(trace) if l.startswith("# built")), "never")
marks = {l.split()[1]: float(l.split()[2]) for l in open(trace) if l.startswith("# ")}
since = re.search(r"no MPI call has completed since ([0-9.]+) s", open(err).read())
split = ["-", "-", "-", "-"]
try:
    e = [f for f in json.load(open(report))["findings"] if f["kind"] == "hang"][0]["evidence"]
    delay = "%.1f" % (e["detected_at_unix"] - float(fired))
    named = ",".join(map(str, e["culprit"]["ranks"] if e.get("culprit") else e["faulty_ranks"]))
    decided = e.get("model", {}).get("decided_by", "-").replace(" ", "-")
    # the watch's clock: seconds since watching began (start_unix on the wall clock; a build
    # whose trace lacks it: the finding's time, later by the stacks taken)
    start = marks.get("start_unix", e["detected_at_unix"] - e["detection_time_s"])
    fault = float(fired) - start
    if "halted" in marks and since:
        split = ["%.1f" % x for x in (
            float(since.group(1)) - fault, marks["halted"] - float(since.group(1)),
            e["detection_time_s"] - marks["halted"],
            e["detected_at_unix"] - start - e["detection_time_s"])]
except (OSError, IndexError, KeyError, ValueError):
    delay, named, decided = "missed", "-", "-"
print("\t".join([run, build, delay, built, decided, named, load] + split))
PY
    done
done | tee "$tmp/lines"
echo
for build in "$@"; do
    awk -F'\t' -v b="$build" '$2 == b && $3 != "missed" {print $3}' "$tmp/lines" | sort -g |
        awk -v b="$build" '{d[NR] = $1} END {
            if (NR) printf "%s: %d runs found, delay median %.1f s, largest %.1f s\n", b, NR,
                (NR % 2 ? d[(NR + 1) / 2] : (d[NR / 2] + d[NR / 2 + 1]) / 2), d[NR]
            else printf "%s: no run found\n", b }'
done
