#!/bin/bash
# The cost of a leaf's quiet time (docs/check-measurements-deadlock.md "The leaf's quiet time"):
# clean runs of busy programs (bench/check/leaf_busy.c, whose exchanges the leaves match, built
# here with each MPI's mpicc; and examples whose calls go up unmatched) under
# `mpiguard check --detector-leaves 2` with the leaves' quiet at
# 100 ms and at 250 ms (MPIGUARD_LEAF_QUIET_MS), interleaved, REPS rounds. A leaf whose input stays
# quiet that long sends up what it holds and passes those ranks through for good, so the records
# reaching the root detector (the report's tool_data.records) and the wall time of the check are
# printed side by side, medians, with their ratio 250/100.
#   bench/check/leaf_quiet.sh [BUILD] [REPS]
# SETUPS (environment) lists MPI:RANKS pairs (default "mpich:4 openmpi:4").
set -u
build=${1:-build} reps=${2:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
declare -A iterations=([leaf_busy]=20 [stencil]=100 [cg]=25 [master_worker]=500)
read -r -a setups <<<"${SETUPS:-mpich:4 openmpi:4}"
examples=(leaf_busy stencil cg master_worker)
quiets=(100 250)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
declare -A walls records
here=$(cd "$(dirname "$0")" && pwd)
for flavor in mpich openmpi; do
    mkdir -p "$work/$flavor"
    "mpicc.$flavor" -O2 -o "$work/$flavor/leaf_busy" "$here/leaf_busy.c" || exit 1
done

program() { # flavor example
    [ "$2" = leaf_busy ] && echo "$work/$1/leaf_busy" || echo "$build/examples/$1/$2"
}

launcher() { [ "$1" = openmpi ] && echo mpirun.openmpi || echo mpiexec.mpich; }

run_once() { # flavor np example quiet
    local flavor=$1 np=$2 example=$3 quiet=$4 report="$work/r.json"
    local start status
    start=$(date +%s.%N)
    MPIGUARD_LEAF_QUIET_MS=$quiet "$build/bin/mpiguard" check -q --report "$report" \
        --detector-leaves 2 -- "$(launcher "$flavor")" -n "$np" \
        "$(program "$flavor" "$example")" --iterations "${iterations[$example]}" >/dev/null 2>&1
    status=$?
    local wall
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    # 80: a finding that does not stop the job (master_worker's wildcard receives race by design)
    [ $status -eq 0 ] || [ $status -eq 80 ] ||
        echo "warning: $flavor $np $example quiet $quiet exited $status" >&2
    local key="$flavor $np $example $quiet"
    walls[$key]+="$wall "
    records[$key]+="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tool_data"]["records"])' "$report" 2>/dev/null || echo 0) "
}

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((round = 0; round < reps; round++)); do
    for setup in "${setups[@]}"; do
        for example in "${examples[@]}"; do
            for quiet in "${quiets[@]}"; do
                run_once "${setup%%:*}" "${setup##*:}" "$example" "$quiet"
            done
        done
    done
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| MPI | ranks | example | records at the root, 100 ms | 250 ms | ratio | wall, 100 ms | 250 ms | ratio |"
echo "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for setup in "${setups[@]}"; do
    flavor=${setup%%:*} np=${setup##*:}
    for example in "${examples[@]}"; do
        r1=$(median <<<"${records[$flavor $np $example 100]}")
        r2=$(median <<<"${records[$flavor $np $example 250]}")
        w1=$(median <<<"${walls[$flavor $np $example 100]}")
        w2=$(median <<<"${walls[$flavor $np $example 250]}")
        awk -v f="$flavor" -v n="$np" -v e="$example" -v r1="$r1" -v r2="$r2" -v w1="$w1" -v w2="$w2" \
            'BEGIN { printf "| %s | %d | %s | %d | %d | %.2f | %.2f s | %.2f s | %.2f |\n", f, n, e, r1, r2, (r1 ? r2 / r1 : 0), w1, w2, (w1 ? w2 / w1 : 0) }'
    done
done
