#!/bin/bash
# What the ptrace sampler holds of the ranks on a loaded node, and how long a verdict takes there
# (issue 29 item 5; docs/hang-measurements.md "Under load"). Adds BUSY busy loops per core to
# whatever else runs (the load average is printed beside each figure), started inside each job's
# own session (busy_in_session.sh: the kernel's autogroup shares the CPUs between sessions first,
# so loops in another session than the ranks' barely load them; load_share.sh), then per RUNS, for
# each build in turn (BUILDS: one build tree, or several separated by ':', side by side):
#   healthy  a stencil job of NP ranks watched for SECONDS by `mpiguard hang --sampler ptrace` at a
#            pinned I = 0.4 s: the share of the watched time the ranks were held and frozen, and
#            the held time per rank reading (report tool_data.monitor_cost), and whether it raised a
#            false alarm;
#   fault    the same job with rank 1 SIGSTOPped inside MPI 15 s after its ranks are found (shm and
#            ptrace): the seconds from the stop to mpiguard's exit 81, the culprit it named, and
#            how many ranks' entries in the report carry the waits they published (peers, tags).
# Each row ends with where the held time went, summed over the ranks from mpiguard's -v lines
# (src/agent/rank_probe.c): per purpose (model samples, verification scans, stacks at the verdict)
# the samples taken and the held ms as seize + wait for the stop + registers and unwind + release;
# then the readings the ranks' segments answered without a stop (a build that reads them), and the
# model readings their call counters or, attached, their frames answered so.
# LAUNCH_VIA=srun runs the jobs under srun (SLURM_CONF of a running cluster: tests/slurm).
# ATTACH=1 starts each job plainly (no interposition library, no segments) and attaches
# `mpiguard hang --attach` to it (its launcher's pid; under srun its Slurm job id), as
# tests/integration/hang_attach.sh does: the ptrace sampler alone, so no shm row.
#   bench/hang/held_under_load.sh [BUILDS] [RUNS] [NP] [SECONDS] [BUSY] [FLAVOR]
set -u
builds=${1:-build} runs=${2:-3} np=${3:-4} seconds=${4:-40} busy=${5:-2} flavor=${6:-openmpi}
absolute() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
IFS=: read -r -a trees <<<"$builds"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export BUILD MPIGUARD
BUILD=$(absolute "${trees[0]}")
MPIGUARD="$BUILD/bin/mpiguard"
. "$(dirname "$0")/../../tests/lib.sh"
job=""
trap 'kill $(cat "$TMP/loops" 2>/dev/null) $job 2>/dev/null; rm -rf "$TMP"' EXIT
launcher="$(launcher_for "$flavor") -n $np $(dirname "$(absolute "$0")")/busy_in_session.sh"
launcher="$launcher $TMP/loops $((busy * $(nproc))) $np"
samplers="shm ptrace"
[ -z "${ATTACH:-}" ] || samplers=ptrace

# The pid of rank RANK of the job with TOKEN; under srun Open MPI's ranks show only SLURM_PROCID.
job_rank_pid() {
    local pid
    for pid in $(token_processes "$1"); do
        grep -q -z -E "^(OMPI_COMM_WORLD_RANK|PMI_RANK|SLURM_PROCID)=$2\$" "/proc/$pid/environ" \
            2>/dev/null && { echo "$pid"; return 0; }
    done
    return 1
}

# start_plain SECONDS: the stencil started without mpiguard in the background ($job its launcher),
# its ranks announced; sets target to what --attach names and pid to rank 1's pid.
start_plain() {
    $launcher "$app" --announce --seconds "$1" >/dev/null 2>"$TMP/job.err" &
    job=$!
    pid=$(stencil_announced "$TMP/job.err" "$np" | awk '$1 == 1 { print $2 }')
    target=pid:$job
    [ "${LAUNCH_VIA:-}" != srun ] ||
        target=slurm:$(tr '\0' '\n' <"/proc/$pid/environ" | sed -n 's/^SLURM_JOB_ID=//p')
}

# The busy loops of the job that ended.
end_loops() {
    kill $(cat "$TMP/loops" 2>/dev/null) 2>/dev/null
    : >"$TMP/loops"
}

# hang_job SECONDS ARGS...: `mpiguard hang -v ARGS` on the stencil of SECONDS, started by mpiguard or
# attached to (ATTACH=1), in the background as $guard, its stderr in $TMP/stderr; sets pid to rank
# 1's pid and token to the job's once its ranks are found (no token when attached).
hang_job() {
    local seconds=$1
    shift
    token=""
    rm -f "$TMP/report.json"
    : >"$TMP/stderr"
    pid=""
    if [ -n "${ATTACH:-}" ]; then
        start_plain "$seconds"
        "$MPIGUARD" hang -v "$@" --report "$TMP/report.json" --attach "$target" \
            >/dev/null 2>"$TMP/stderr" &
        guard=$!
        return
    fi
    "$MPIGUARD" hang -v --mpi "$flavor" "$@" --report "$TMP/report.json" -- \
        $launcher "$app" --seconds "$seconds" >/dev/null 2>"$TMP/stderr" &
    guard=$!
    for _ in $(seq 1 300); do
        [ -n "$token" ] || token=$(grep -o 'MPIGUARD_JOB_TOKEN[= ][0-9a-f]*' "$TMP/stderr" | head -1 | cut -c20-)
        [ -z "$token" ] || ! pid=$(job_rank_pid "$token" 1) || break
        sleep 0.2
    done
}

# row RUN BUILD CASE SAMPLER STATUS DELAY: one line of the table from $TMP/report.json and
# $TMP/stderr.
row() {
    python3 - "$TMP/report.json" "$TMP/stderr" "$(cut -d' ' -f1 /proc/loadavg)" "$@" <<'PY'
import json, re, sys
report, stderr, load, run, build, case, sampler, status, delay = sys.argv[1:]
log = open(stderr, errors="replace").read()
phases = {}
line = re.compile(r"ptrace held rank \d+ ([0-9.]+) ms in (\d+) (\w+) samples: seize ([0-9.]+), "
                  r"wait for the stop ([0-9.]+), registers and unwind ([0-9.]+), release ([0-9.]+) ms")
for m in line.finditer(log):
    total = phases.setdefault(m[3], [0, 0.0, 0.0, 0.0, 0.0, 0.0])
    total[0] += int(m[2])
    for i, v in enumerate((m[1], m[4], m[5], m[6], m[7])):
        total[i + 1] += float(v)
where = [f"{k} {v[0]}: {v[1]:.0f} = {v[2]:.0f}+{v[3]:.0f}+{v[4]:.0f}+{v[5]:.0f}"
         for k, v in phases.items()]
segment = re.compile(r"rank \d+ was read from its segment without a stop in (\d+) model samples "
                     r"and (\d+) scan samples")
unstopped = [0, 0]
for m in segment.finditer(log):
    unstopped = [unstopped[0] + int(m[1]), unstopped[1] + int(m[2])]
if any(unstopped):
    where.append(f"from segments: model {unstopped[0]}, scan {unstopped[1]}")
counted = re.compile(r"rank \d+ was read from its call counter or its frames without a stop in "
                     r"(\d+) model samples")
by_counter = sum(int(m[1]) for m in counted.finditer(log))
if by_counter:
    where.append(f"from counters or frames: model {by_counter}")
where = "; ".join(where) or "-"
try:
    r = json.load(open(report))
except (OSError, ValueError):
    print(f"| {run} | {build} | {case} | {sampler} | {load} | no report | | | | | {status} | | | | |")
    sys.exit()
c = r["tool_data"]["monitor_cost"]
w, n = c["watched_s"], c["rank_readings"]
held, frozen = c.get("held_s", 0), c.get("frozen_s", 0)
f = r["findings"][0]["evidence"] if r["findings"] else {}
if case == "healthy":
    named = "false alarm" if r["findings"] else "-"
else:
    named = f.get("culprit", {}).get("ranks", f.get("faulty_ranks", "-"))
waits = sum(1 for e in f.get("per_rank", []) if e.get("waits_for")) if f else "-"
print(f"| {run} | {build} | {case} | {sampler} | {load} | {w:.1f} | {n} | {100 * held / w:.2f} | "
      f"{100 * frozen / w:.2f} | {1000 * held / max(n, 1):.2f} | {status} | {delay} | {named} | "
      f"{waits} | {where} |")
PY
}

echo "| run | build | case | sampler | load1 | watched s | readings | held % | frozen % | held ms/reading | exit | delay s | culprit | ranks with published waits | held ms by purpose: samples: seize+wait+unwind+release |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for ((run = 1; run <= runs; run++)); do
    for tree in "${trees[@]}"; do
        BUILD=$(absolute "$tree")
        MPIGUARD="$BUILD/bin/mpiguard"
        app="$BUILD/examples/$flavor/stencil"
        hang_job "$seconds" --sampler ptrace --interval 0.4 --max-interval 0.4
        # an attached job ends by itself, and mpiguard with it
        wait $guard
        row "$run" "$tree" healthy ptrace $? -
        [ -z "${ATTACH:-}" ] || wait $job
        end_loops
        for sampler in $samplers; do
            hang_job 300 --sampler "$sampler"
            sleep 15
            # by its published state, or where it stopped for a job that publishes none
            catch_rank "$token" "$np" 1 "$pid" in >/dev/null
            stopped=$(date +%s.%N)
            wait $guard
            status=$?
            delay=$(printf '%.1f' "$(echo "$(date +%s.%N) - $stopped" | bc -l)")
            row "$run" "$tree" stop-in "$sampler" $status "$delay"
            # mpiguard stops a job it attached to; one it failed to stop does not outlive the run
            [ -z "${ATTACH:-}" ] || wait_ended $job 30 || kill -9 $job "$pid" 2>/dev/null
            end_loops
        done
    done
done
