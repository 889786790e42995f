#!/bin/bash
# Instrumentation of what clang -O0 emits (tests/concolic/programs/constructs.c): every branch arm
# behind a switch, a comparison used as a value, a _Bool, a select/phi, swapping phis, memcpy, a
# call's argument and return value, a widening cast and an unsigned comparison must be covered,
# which needs the symbolic value to survive each construct. Also: the build is deterministic (same
# build id twice) and -E passes through.
#   constructs.sh FLAVOR RUNS
. "$(dirname "$0")/../lib.sh"
flavor=$1 budget=$2
src=$(cd "$(dirname "$0")/programs" && pwd)
export PATH="$BUILD/bin:$PATH" MPIGUARD_MPI=$flavor
cd "$TMP" || fail "no tmp dir"
mpiguard-cc -o constructs "$src/constructs.c" || fail "build"
id1=$(head -1 constructs.mpiguard-branches.tsv)
mpiguard-cc -o constructs "$src/constructs.c" || fail "rebuild"
[ "$id1" = "$(head -1 constructs.mpiguard-branches.tsv)" ] || fail "build id not stable"
mpiguard-cc -E "$src/constructs.c" | grep -q "mpiguard_int" || fail "-E does not pass through"
# The guards are independent, so DFS would enumerate their combinations: the CFG strategy goes to
# the uncovered arms directly.
expect_status 0 "campaign" -- "$MPIGUARD" concolic --np 1 --max-np 2 --iterations "$budget" \
    --strategy cfg --dir c -- ./constructs
total=$(grep -vc '^#' constructs.mpiguard-branches.tsv)
grep -q "coverage: $((2 * total)) of $((2 * total)) branch arms" "$TMP/stdout" ||
    { sed -n '/uncovered arms:/,$p' "$TMP/stdout" >&2; fail "arms left uncovered"; }
pass "every construct tracked with $flavor"
