#!/bin/bash
# Floating-point inputs (docs/concolic.md "Floating-point inputs"): floats.c's branches on doubles
# (a residual threshold, a CFL condition, a position cast to a cell index) are covered by the
# concolic search over the reals, which finds F1 (the position 1.0 cast past the last cell) and
# whose reproducer fails again; random testing covers none of them in half the budget, nor does
# the search with floats kept concrete. The report counts the runs from float solutions. A real
# solution no double reaches (float_gap.c) leaves its arm uncovered and counts as missed.
# Bad input: a campaign on a program that reads a NaN, then an infinite residual, goes on past it.
#   floats.sh FLAVOR RUNS (the search's budget; the other campaigns get half of it)
. "$(dirname "$0")/../lib.sh"
flavor=$1 budget=$2
src=$(cd "$(dirname "$0")/programs" && pwd)
export PATH="$BUILD/bin:$PATH" MPIGUARD_MPI=$flavor
cd "$TMP" || fail "no tmp dir"
mpiguard-cc -o floats "$src/floats.c" || fail "build floats.c"
line_of() { grep -n "/\* $1" "$src/floats.c" | cut -d: -f1; }
# campaign RUNS options... -- program args...
campaign() {
    local runs=$1
    shift
    "$MPIGUARD" concolic --mpi "$flavor" --np 1 --max-np 2 --iterations "$runs" --timeout 30 "$@"
}
# float_counts REPORT: the runs from float solutions and those that missed their arm.
float_counts() {
    python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["tool_data"]["cost"]
print(c["float_solutions"], c["float_missed"])' "$1"
}
uncovered() { grep -q "floats.c:$(line_of "$1") [a-z_]* b[0-9]* if $2" "$TMP/stdout"; }

expect_status 80 "real campaign" -- campaign "$budget" --dir real --report real.json -- ./floats
for shape in "the residual threshold" "the CFL condition"; do
    ! uncovered "$shape" true || { sed -n '/uncovered arms/,$p' "$TMP/stdout" >&2; fail "real: $shape not covered"; }
done
bug=$(grep -l "^outcome assertion$" real/bugs/bug-*.txt) || { cat real/campaign >&2; fail "real: F1 not found"; }
grep -q "^inputs [0-9.e-]* [0-9.e-]* [0-9.e-]* 1$" "$bug" || { cat "$bug" >&2; fail "real: F1's position is not 1"; }
sh -c "$(sed -n 's/^command //p' "$bug")" >rerun.txt 2>&1 && fail "real: the reproducer of F1 passed"
grep -q "floats.c:[0-9]*: .*Assertion .cell < CELLS. failed" rerun.txt ||
    { cat rerun.txt >&2; fail "real: the reproducer of F1 did not fail its assertion"; }
read -r solutions missed < <(float_counts real.json) || fail "real: no float counts in the report"
[ "$solutions" -gt 0 ] && [ "$missed" -le "$solutions" ] || fail "real: $solutions float solutions, $missed missed"
grep -qE "[0-9]+ runs from float solutions \([0-9]+ missed their arm\)" "$TMP/stdout" || fail "real: cost line"

for variant in "--strategy random-inputs" "--floats off"; do
    expect_status 0 "$variant" -- campaign $((budget / 2)) $variant --dir other -- ./floats
    uncovered "the residual threshold" true && uncovered "the CFL condition" true ||
        fail "$variant: a float branch was covered"
    rm -rf other
done

# NaN and infinity read by the program: no constraint from a NaN, the campaign goes on.
for value in nan inf; do
    campaign 6 --dir "$value" -- ./floats "$value" >"$TMP/stdout" 2>"$TMP/stderr"
    status=$?
    [ "$status" -eq 0 ] || [ "$status" -eq 80 ] || { cat "$TMP/stderr" >&2; fail "$value: exit status $status"; }
    [ "$(grep -vc '^#' "$value/runs.tsv")" -eq 6 ] || fail "$value: not every run done"
done
# runs.tsv carries a float input as its double's bits: the first run read the quiet NaN.
grep -q "^1	.*	9221120237041090560 4562254508917369340 4607182418800017408 4602678819172646912$" nan/runs.tsv ||
    { cat nan/runs.tsv >&2; fail "nan: the first run did not read it"; }

# A real solution between two adjacent doubles: the run made from it misses the arm, which stays
# uncovered, and the report counts that run as missed.
mpiguard-cc -o float_gap "$src/float_gap.c" || fail "build float_gap.c"
expect_status 0 "gap" -- campaign 4 --max-np 1 --dir c-gap --report gap.json -- ./float_gap
gap=$(grep -n "/\* GAP \*/" "$src/float_gap.c" | cut -d: -f1)
grep -q "float_gap.c:$gap main b1 if true" "$TMP/stdout" || { cat "$TMP/stdout" >&2; fail "gap: an arm no double reaches was counted covered"; }
read -r solutions missed < <(float_counts gap.json) || fail "gap: no float counts in the report"
[ "$missed" -ge 1 ] || fail "gap: $solutions float solutions, none missed its arm"
expect_status 64 "unknown float mode" -- campaign 1 --floats double --dir bad -- ./floats
pass "float branches covered over the reals, F1 found and reproduced ($flavor)"
