#!/bin/bash
# What the ptrace sampler holds of the ranks on a loaded node, and how long a verdict takes there
# (issue 29 item 5; docs/hang-measurements.md "Under load"). Adds BUSY busy loops per core to
# whatever else runs (the load average is printed beside each figure), then per RUNS:
#   healthy  a stencil job of NP ranks watched for SECONDS by `mpiguard hang --sampler ptrace` at a
#            pinned I = 0.4 s: the share of the watched time the ranks were held and frozen
#            (report tool_data.monitor_cost), and whether it raised a false alarm;
#   fault    the same job with rank 1 SIGSTOPped inside MPI 15 s after its ranks are found (shm and
#            ptrace): the seconds from the stop to mpiguard's exit 81, and the culprit it named.
#   bench/hang/held_under_load.sh [BUILD] [RUNS] [NP] [SECONDS] [BUSY] [FLAVOR]
set -u
build=${1:-build} runs=${2:-3} np=${3:-4} seconds=${4:-40} busy=${5:-2} flavor=${6:-openmpi}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export MPIGUARD="$PWD/$build/bin/mpiguard" BUILD="$PWD/$build"
. "$(dirname "$0")/../../tests/lib.sh"
loops=()
for ((i = 0; i < busy * $(nproc); i++)); do
    (while :; do :; done) &
    loops+=($!)
done
trap 'kill "${loops[@]}" 2>/dev/null; rm -rf "$TMP"' EXIT
launcher=$(launcher_for "$flavor")
app="$build/examples/$flavor/stencil"
echo "| run | case | sampler | load1 | watched s | held % | frozen % | exit | delay s | culprit |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for ((run = 1; run <= runs; run++)); do
    report="$TMP/healthy.json"
    "$MPIGUARD" hang --sampler ptrace --interval 0.4 --max-interval 0.4 --report "$report" -- \
        $launcher -n "$np" "$app" --seconds "$seconds" >/dev/null 2>"$TMP/stderr"
    status=$?
    python3 - "$report" "$run" "$status" "$(cut -d' ' -f1 /proc/loadavg)" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); c = r["tool_data"]["monitor_cost"]
w = c["watched_s"]
print(f"| {sys.argv[2]} | healthy | ptrace | {sys.argv[4]} | {w:.1f} | {100 * c['held_s'] / w:.2f} | "
      f"{100 * c['frozen_s'] / w:.2f} | {sys.argv[3]} | - | {'false alarm' if r['findings'] else '-'} |")
PY
    for sampler in shm ptrace; do
        report="$TMP/fault.json"
        : >"$TMP/stderr"
        "$MPIGUARD" hang -v --sampler "$sampler" --report "$report" -- $launcher -n "$np" "$app" \
            --seconds 300 >/dev/null 2>"$TMP/stderr" &
        guard=$!
        token="" pid=""
        for _ in $(seq 1 300); do
            [ -n "$token" ] || token=$(grep -o 'MPIGUARD_JOB_TOKEN[= ][0-9a-f]*' "$TMP/stderr" | head -1 | cut -c20-)
            [ -z "$token" ] || ! pid=$(rank_pid "$token" 1) || break
            sleep 0.2
        done
        sleep 15
        # ptrace jobs have no published state to catch the rank inside MPI by: a plain stop there
        if [ "$sampler" = shm ]; then catch_rank "$token" "$np" 1 "$pid" in >/dev/null; else kill -STOP "$pid"; fi
        stopped=$(date +%s.%N)
        wait $guard
        status=$?
        delay=$(echo "$(date +%s.%N) - $stopped" | bc -l)
        python3 - "$report" "$run" "$status" "$(cut -d' ' -f1 /proc/loadavg)" "$delay" "$sampler" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); c = r["tool_data"]["monitor_cost"]
w = c["watched_s"]
f = r["findings"][0]["evidence"] if r["findings"] else {}
culprit = f.get("culprit", {}).get("ranks", f.get("faulty_ranks", "-"))
print(f"| {sys.argv[2]} | stop-in | {sys.argv[6]} | {sys.argv[4]} | {w:.1f} | "
      f"{100 * c['held_s'] / w:.2f} | {100 * c['frozen_s'] / w:.2f} | {sys.argv[3]} | "
      f"{float(sys.argv[5]):.1f} | {culprit} |")
PY
    done
done
