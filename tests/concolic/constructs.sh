#!/bin/bash
# Instrumentation of what clang -O0 emits (tests/concolic/programs/constructs.c): every branch arm
# behind a switch, a comparison used as a value, a _Bool, a select/phi, swapping phis, memcpy, a
# call's argument and return value, a widening cast and an unsigned comparison must be covered,
# which needs the symbolic value to survive each construct. Also: the build is deterministic (same
# build id twice) and -E passes through; every run's cost is split into launch, run and teardown
# from the ranks' timestamps (runs.tsv, the cost line, the JSON report).
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
# the uncovered arms directly, guided by the distances over the program's control-flow graph.
[ -s constructs.mpiguard-cfg ] || fail "no control-flow graph"
expect_status 0 "campaign" -- "$MPIGUARD" concolic --np 1 --max-np 2 --iterations "$budget" \
    --strategy cfg --dir c --report report.json -- ./constructs
! grep -q "control-flow graph" "$TMP/stderr" || fail "the graph was not used"
total=$(grep -vc '^#' constructs.mpiguard-branches.tsv)
grep -q "coverage: $((2 * total)) of $((2 * total)) branch arms" "$TMP/stdout" ||
    { sed -n '/uncovered arms/,$p' "$TMP/stdout" >&2; fail "arms left uncovered"; }
# The cost split: every run's launch, run and teardown are known and add up to the job's time.
awk -F'\t' '!/^#/ { n++; if ($7 == "-" || $7 < 0 || $8 <= 0 || $9 < 0) exit 1
    d = $6 - $7 - $8 - $9; if (d > 0.001 || d < -0.001) exit 1 } END { exit n != '"$budget"' }' c/runs.tsv ||
    { cat c/runs.tsv >&2; fail "runs.tsv: a run without its cost split"; }
grep -qE "^cost: $budget runs in [0-9.]+ s: job [0-9.]+ s/run = launch [0-9.]+ \+ run [0-9.]+ \+ teardown [0-9.]+ s/run \(split known for $budget runs\), solve" "$TMP/stdout" ||
    { grep "^cost" "$TMP/stdout" >&2; fail "cost line"; }
tr -d ' \n' <report.json | grep -qE '"cost":\{"runs":'"$budget"',"split_runs":'"$budget"',"job_s_per_run":[0-9.e-]+,"launch_s_per_run":[0-9.e-]+,"run_s_per_run"' ||
    fail "report lacks the cost split"
pass "every construct tracked with $flavor"
