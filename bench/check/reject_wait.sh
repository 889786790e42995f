#!/bin/bash
# The cost of a rejected call's wait for its record's read (bench/check/reject_wait.c) under a
# running `mpiguard check`, for each MPI: NP ranks each make CALLS sends with an out-of-range rank
# (each waits until the detector read its record) interleaved with CALLS sends to MPI_PROC_NULL
# (no wait). Prints the median and the maximum wall time per call of each kind, in microseconds,
# and the invalid/valid ratio of the medians, with the load.
#   bench/check/reject_wait.sh [BUILD] [CALLS] [NP]
set -u
build=${1:-build} calls=${2:-20} np=${3:-2}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
work=$(mktemp -d /tmp/mg-reject-wait.XXXXXX)
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
maximum() { sort -g | tail -1; }
echo "MPI_Send under check, $np ranks x $calls calls of each kind, wall us per call, load $(cut -d' ' -f1-3 /proc/loadavg) at the start:"
echo "| MPI | invalid: median | invalid: max | valid: median | valid: max | median invalid / valid |"
echo "|---|---|---|---|---|---|"
for flavor in openmpi mpich; do
    launcher=$([ "$flavor" = mpich ] && echo mpiexec.mpich || echo mpirun.openmpi)
    mpicc.$flavor -O2 -o "$work/reject_wait_$flavor" "$(dirname "$0")/reject_wait.c" || exit 1
    # the findings (one rank_out_of_range per rank) are expected: only the timings are read
    "$build/bin/mpiguard" check -q --report "$work/report_$flavor.json" -- "$launcher" -n "$np" \
        "$work/reject_wait_$flavor" "$calls" >"$work/$flavor.out" 2>/dev/null
    for kind in invalid valid; do
        awk -v k=$kind '$1 == k {print $2 / 1000}' "$work/$flavor.out" >"$work/$flavor.$kind"
        [ "$(wc -l <"$work/$flavor.$kind")" -eq $((np * calls)) ] ||
            { echo "$flavor: $(wc -l <"$work/$flavor.$kind") $kind calls timed, not $((np * calls))" >&2; exit 1; }
    done
    inv_med=$(median <"$work/$flavor.invalid") val_med=$(median <"$work/$flavor.valid")
    printf '| %s | %.0f | %.0f | %.1f | %.1f | %.0f |\n' "$flavor" "$inv_med" \
        "$(maximum <"$work/$flavor.invalid")" "$val_med" "$(maximum <"$work/$flavor.valid")" \
        "$(echo "$inv_med / $val_med" | bc -l)"
done
