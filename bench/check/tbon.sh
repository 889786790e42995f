#!/bin/sh
# Prints the figures of the tree of detectors (docs/check-measurements-deadlock.md "A tree of detectors"):
# synthetic jobs of 10^3, 10^4 and 10^5 ranks (ring exchanges and an Allreduce per iteration, a
# deadlock planted across leaves at the end) replayed through 1 level (today's single detector) and
# trees of 2 levels with 2-16 leaves and of 3 levels, each stage a process (check_tbon_bench).
# Usage: bench/check/tbon.sh [build-dir] [quick]   (quick: 10^3 and 10^4 only)
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build}
sizes="1000 10000 100000"
[ "${2:-}" = quick ] && sizes="1000 10000"
cmake --build "$build" --target check_tbon_bench mpiguard -j2 >/dev/null
bench="$build/bench/check_tbon_bench"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| ranks | leaves | middle | leaf records/s (slowest, CPU) | frames reaching the root | per 1000 MPI calls | root CPU per MPI call | peak RSS leaf / root | verdict after the last record |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for p in $sizes; do
    for shape in "0 0" "2 0" "4 0" "8 0" "16 0" "16 4"; do
        # the run fails (and so does this script) unless the root found the planted deadlock
        # shellcheck disable=SC2086
        out=$("$bench" "$p" $shape 4)
        echo "$out" | awk '$1 == "TABLE" {
            leaf = $3 == 0 ? "-" : sprintf("%.2f M", $5)
            rss = $3 == 0 ? sprintf("- / %.1f MB", $9) : sprintf("%.1f / %.1f MB", $8, $9)
            printf "| %d | %d | %d | %s | %d | %.3f | %d ns | %s | %.3f s |\n", $2, $3, $4, leaf, $11, $6, $7, rss, $10
        }'
    done
done
