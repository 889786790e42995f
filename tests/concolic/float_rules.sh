#!/bin/bash
# The float rules of docs/design/concolic.md "The float rules", one branch each in float_rules.c:
# a branch on a value a rule keeps symbolic has both arms covered (the solver reached the arm the
# inputs' own values miss), a branch on a value a rule makes concrete keeps its true arm
# uncovered. (--floats fp is tested on the engine, test_solver_floats: its IEEE queries on this
# program ran past the per-query limit of 5 s at load 57.)
#   float_rules.sh FLAVOR RUNS
. "$(dirname "$0")/../lib.sh"
flavor=$1 budget=$2
src=$(cd "$(dirname "$0")/programs" && pwd)
export PATH="$BUILD/bin:$PATH" MPIGUARD_MPI=$flavor
cd "$TMP" || fail "no tmp dir"
mpiguard-cc -o rules "$src/float_rules.c" -lm || fail "build float_rules.c"
check() {
    local mode=$1 line rule arm
    while IFS=: read -r line rule; do
        arm=$(grep -c "float_rules.c:$line main b[0-9]* if true" "$TMP/stdout")
        case "$rule" in
        *"is concrete"*) [ "$arm" -eq 1 ] || fail "$mode: '$rule' was solved" ;;
        *) [ "$arm" -eq 0 ] || { sed -n '/uncovered arms/,$p' "$TMP/stdout" >&2; fail "$mode: '$rule' not solved"; } ;;
        esac
    done < <(grep -n "/\* rule: " "$src/float_rules.c" | sed 's|:.*/\* rule: \(.*\) \*/|:\1|')
}
expect_status 0 "campaign" -- "$MPIGUARD" concolic --mpi "$flavor" --np 1 --max-np 1 \
    --iterations "$budget" --strategy cfg --dir c -- ./rules
check real
pass "every float rule ($flavor)"
