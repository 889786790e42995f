#!/bin/bash
# Random testing draws every run's inputs (docs/design/concolic.md "mpiguard concolic"): rank0_reads.c's input is
# read by rank 0 alone, so a run whose focus is rank 1 logs none, and its program's own value
# (500) is outside the random range. With np 2 and focus 1 fixed, random-all's runs never take
# the program's own value (its arm stays uncovered) and random-inputs' runs after the first
# (which is the program's own) take random ones (the other arm is covered). Before each run drew
# at least 64 values, the runs after one that logged no input kept the program's own.
#   random_baseline.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
src=$(cd "$(dirname "$0")/programs" && pwd)
export PATH="$BUILD/bin:$PATH" MPIGUARD_MPI=$flavor
cd "$TMP" || fail "no tmp dir"
mpiguard-cc -o rank0_reads "$src/rank0_reads.c" || fail "build rank0_reads.c"
own=$(grep -n "/\* OWN-VALUE \*/" "$src/rank0_reads.c" | cut -d: -f1)
campaign() {
    "$MPIGUARD" concolic --mpi "$flavor" --np 2 --focus 1 --fixed --iterations 4 --timeout 30 \
        --strategy "$@" -- ./rank0_reads
}
arm() { grep -q "rank0_reads.c:$own main b[0-9]* if $1" "$TMP/stdout"; } # listed uncovered

expect_status 0 "random-all" -- campaign random-all --dir all
arm true || { cat all/runs.tsv >&2; fail "random-all: a run kept the program's own value"; }
expect_status 0 "random-inputs" -- campaign random-inputs --dir inputs
! arm true || fail "random-inputs: the first run is not the program's own"
! arm false || { cat inputs/runs.tsv >&2; fail "random-inputs: no run after the first was random"; }
pass "random testing draws every run's inputs ($flavor)"
