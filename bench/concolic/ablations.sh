#!/bin/bash
# Ablations and cost per run on the planted target: two-way vs one-way instrumentation (time per
# run, log bytes per run), constraint-set reduction vs none, and the cost of an iteration split
# into launch (spawning the launcher to the first rank's start), run (to the last rank's end),
# teardown (the rest of the job) and solve, from the ranks' timestamps (docs/design/concolic.md "Cost");
# the launch-only row is an MPI program that only initialises and finalises. The campaigns run with
# COMPI's caps (--caps), as the tables were measured.
#   ablations.sh BUILD_DIR [RUNS] [FLAVOR]
set -eu
build=$1 runs=${2:-30} flavor=${3:-mpich}
. "$(dirname "$0")/setup.sh"
mpiguard-cc -o empty "$src/other_build.c"
row() { # name, program, options...
    local name=$1 prog=$2
    shift 2
    mpiguard concolic --iterations "$runs" --timeout 20 --caps --dir "c-$name" "$@" -- "$prog" >"$name.out" 2>/dev/null || true
    sed -n 's/^cost: [0-9]* runs in [0-9.]* s: job \([0-9.]*\) s\/run = launch \([0-9.]*\) + run \([0-9.]*\) + teardown \([0-9.]*\) s\/run (split known for \([0-9]*\) runs), solve \([0-9.]*\) s\/run (\([0-9]*\) queries, [0-9]* sat[^)]*), logs \([0-9]*\) bytes\/run.*/\1 \2 \3 \4 \5 \6 \7 \8/p' "$name.out" |
        { read -r job launch run teardown split solve q bytes
          printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n" "$name" "$job" "$launch" "$run" "$teardown" \
            "$split" "$solve" "$q" "$bytes" "$(sed -n 's/^coverage: \([0-9]*\) of.*/\1/p' "$name.out")"; }
}
echo "$flavor, $runs runs each, np 4 fixed, focus 0, --caps"
echo "| variant | job s/run | launch s/run | run s/run | teardown s/run | runs split | solve s/run | queries | log bytes/run (all ranks) | arms |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
row launch-only ./empty --np 4 --fixed --strategy random-inputs
row two-way ./planted --np 4 --fixed
row one-way ./planted --np 4 --fixed --one-way
row no-reduce ./planted --np 4 --fixed --no-reduce

# Reduction on one fixed path (the solver loop for 6 iterations: 7 and more stop at the planted
# abort): the heavy log of the same run with and without constraint-set reduction.
echo
echo "| one run: width 8, mode 0, iters 6, tol 1 | heavy log bytes |"
echo "| --- | ---: |"
printf '8\n0\n6\n1\n' >inputs
for mode in reduce no-reduce; do
    extra=MPIGUARD_CONCOLIC_UNUSED=1
    [ "$mode" = no-reduce ] && extra=MPIGUARD_CONCOLIC_NO_REDUCE=1
    mkdir -p "log-$mode"
    env MPIGUARD_CONCOLIC_DIR="$PWD/log-$mode" MPIGUARD_CONCOLIC_INPUTS="$PWD/inputs" "$extra" \
        ./planted.mpiguard-heavy >/dev/null 2>&1 || true
    printf "| %s | %s |\n" "$mode" "$(stat -c %s "log-$mode/rank-0.log")"
done
