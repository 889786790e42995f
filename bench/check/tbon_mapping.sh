#!/bin/sh
# Blocks against ranks round robin through the tree of detectors
# (docs/check-measurements-deadlock.md "Leaves of any rank mapping"): the replay of check_tbon_bench
# (tbon.sh's synthetic job) with each leaf streaming a block of consecutive ranks, in the build BASE
# (before a leaf could stream any other set) and in this one, and with leaf l streaming the ranks r
# with r % LEAVES == l in this one. Per row the slowest leaf's records/s of CPU (median of RUNS
# runs) and the frames reaching the root per 1000 MPI calls, with the ratios of this build's blocks
# to BASE's and of round robin to blocks.
# Usage: bench/check/tbon_mapping.sh BUILD BASE_BUILD [RUNS]
set -eu
build=${1:?usage: tbon_mapping.sh BUILD BASE_BUILD [RUNS]}
base=${2:?usage: tbon_mapping.sh BUILD BASE_BUILD [RUNS]}
runs=${3:-3}
cmake --build "$build" --target check_tbon_bench mpiguard -j2 >/dev/null
# "RATE FRAMES_PER_1000" of one configuration: the median run's (by leaf rate)
measure() {
    bench=$1
    shift
    for _ in $(seq "$runs"); do
        # the run fails (and so does this script) unless the root found the planted deadlock
        "$bench" "$@" | awk '$1 == "TABLE" { print $5, $6 }'
    done | sort -n | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }'
}
echo "load: $(cut -d' ' -f1-3 /proc/loadavg), $runs runs per cell"
echo "| ranks | leaves | middle | leaf M records/s: blocks before / blocks now / round robin | ratio now / before | round robin / blocks | frames at the root per 1000 MPI calls: blocks before / now / round robin |"
echo "| ---: | ---: | ---: | --- | ---: | ---: | --- |"
for p in 1000 10000; do
    for shape in "4 0" "16 0" "16 4"; do
        # shellcheck disable=SC2086
        before=$(measure "$base/bench/check_tbon_bench" "$p" $shape 4)
        # shellcheck disable=SC2086
        now=$(measure "$build/bench/check_tbon_bench" "$p" $shape 4)
        # shellcheck disable=SC2086
        cyclic=$(measure "$build/bench/check_tbon_bench" "$p" $shape 4 cyclic)
        echo "$p $shape $before $now $cyclic" | awk '{
            printf "| %d | %d | %d | %.2f / %.2f / %.2f | %.2f | %.2f | %.3f / %.3f / %.3f |\n",
                $1, $2, $3, $4, $6, $8, $6 / $4, $8 / $6, $5, $7, $9
        }'
    done
done
