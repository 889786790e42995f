#!/bin/bash
# A grid whose rows need the process count (grid.c, as HPL's P x Q): from the input's 1 x 2 at
# np 2, the negation of `p >= 2` must give p = 2 at np 4, a run the program accepts, within a few
# runs. When the runtime concretised the product p * q, the check logged `2 <= size` only, the
# solver kept np 2, and every p = 2 it made was refused (HPL's 2 x 2 at np 2). (HPL's other
# obstacle, a loop exit on the process count that refuses p = 2 at np 4: test_sizes_left_out.)
#   grid.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
src=$(cd "$(dirname "$0")/programs" && pwd)
export PATH="$BUILD/bin:$PATH" MPIGUARD_MPI=$flavor
cd "$TMP" || fail "no tmp dir"
mpiguard-cc -o grid "$src/grid.c" || fail "build grid.c"
rows=$(grep -n "/\* ROWS \*/" "$src/grid.c" | cut -d: -f1)
expect_status 0 "campaign" -- "$MPIGUARD" concolic --mpi "$flavor" --np 2 --max-np 4 --iterations 6 \
    --timeout 30 --dir c -- ./grid
! grep -q "grid.c:$rows main b[0-9]* if true" "$TMP/stdout" ||
    { cat c/runs.tsv >&2; fail "no run took p >= 2"; }
# The run that took it: p = 2 on a grid that fits, accepted.
awk -F'\t' '!/^#/ { split($11, v, " "); if (v[1] >= 2 && v[1] * v[2] <= $2 && $4 == "clean") ok = 1 }
            END { exit !ok }' c/runs.tsv || { cat c/runs.tsv >&2; fail "no clean run with p >= 2"; }
pass "the grid's rows reached at a process count that fits ($flavor)"
