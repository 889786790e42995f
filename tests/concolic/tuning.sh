#!/bin/bash
# Input tuning against COMPI's caps (docs/design/concolic.md "Input tuning"): planted.c's five bugs
# are found with tuning on and no caps (the default) and with caps (--caps); only the tuned
# campaign runs
# `iters` past its mark's limit of 20 (the runtime does not lower it); the inputs file of a
# tuned campaign says `uncapped`, so its reproducers run the values the solver chose; the cost
# line counts the checks tuning added. The runs each took to all five bugs are printed.
#   tuning.sh FLAVOR BUDGET
. "$(dirname "$0")/../lib.sh"
flavor=$1 budget=$2
src=$(cd "$(dirname "$0")/programs" && pwd)
export PATH="$BUILD/bin:$PATH" MPIGUARD_MPI=$flavor
cd "$TMP" || fail "no tmp dir"
make -s -f "$src/Makefile" SRC="$src" CC=mpiguard-cc planted >make.out 2>&1 || { cat make.out; fail "make CC=mpiguard-cc planted"; }

# runs_to_all MODE: the run after which the campaign had found all five bugs.
runs_to_all() { sed -n 's/^mpiguard: concolic: run \([0-9]*\) .* 5 bugs$/\1/p' "$1.err" | head -1; }
for mode in tuned caps; do
    tune=()
    [ "$mode" = caps ] && tune=(--caps)
    expect_status 80 "$mode campaign" -- "$MPIGUARD" concolic --np 1 --max-np 6 --iterations "$budget" \
        --timeout 60 "${tune[@]}" --dir "$mode" -- ./planted
    cp "$TMP/stderr" "$mode.err"
    cp "$TMP/stdout" "$mode.out"
    [ "$(grep -c '^bug ' "$mode/campaign")" -eq 5 ] || { cat "$mode/campaign" >&2; fail "$mode: not the five planted bugs in $budget runs"; }
done
tuned=$(runs_to_all tuned) capped=$(runs_to_all caps)
echo "runs to all five bugs: tuned $tuned, caps $capped"
# iters_max MODE: the largest `iters` (input 3) a run of the campaign used.
iters_max() { awk -F'\t' '!/^#/ { split($NF, in_, " "); if (in_[3] > m) m = in_[3] } END { print m + 0 }' "$1/runs.tsv"; }
[ "$(iters_max tuned)" -gt 20 ] || fail "the tuned campaign never ran iters past its limit of 20"
[ "$(iters_max caps)" -le 20 ] || fail "the capped campaign ran iters past its limit of 20"
grep -qE "^cost: .* [1-9][0-9]* tuning checks(,|$)" tuned.out || fail "no tuning checks counted"
grep -qE "^cost: .* 0 tuning checks(,|$)" caps.out || fail "a capped campaign ran tuning checks"
head -1 tuned/bugs/bug-1.inputs | grep -qx uncapped || fail "a tuned campaign's inputs are not marked uncapped"
! grep -q uncapped caps/bugs/bug-1.inputs || fail "a capped campaign's inputs are marked uncapped"

# Under --fixed every solution of a rank constraint is the last run again: tuned (here by the
# older command line's --tune, still accepted), each is skipped and counted in repeats, on the
# cost line and in the JSON report alike; capped, none is.
for mode in tuned caps; do
    tune=(--caps)
    [ "$mode" = tuned ] && tune=(--tune)
    "$MPIGUARD" concolic --np 1 --iterations 6 --timeout 60 --fixed "${tune[@]}" --dir "fixed-$mode" \
        --report "fixed-$mode.json" -- ./planted >"fixed-$mode.out" 2>"fixed-$mode.err"
    st=$?
    [ "$st" -eq 0 ] || [ "$st" -eq 80 ] || { cat "fixed-$mode.err" >&2; fail "$mode --fixed campaign: exit $st"; }
    line=$(sed -n 's/^cost: .* \([0-9][0-9]*\) repeats (solutions skipped as runs already made).*/\1/p' "fixed-$mode.out")
    json=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["tool_data"]["cost"]["repeats"])' "fixed-$mode.json") ||
        fail "$mode: no repeats in the report"
    [ -n "$line" ] && [ "$line" = "$json" ] || { cat "fixed-$mode.out" >&2; fail "$mode: repeats '$line' on the cost line, '$json' in the report"; }
    if [ "$mode" = tuned ]; then
        [ "$line" -ge 1 ] || fail "tuned --fixed: no repeat counted"
    else
        [ "$line" -eq 0 ] || fail "capped: $line repeats counted"
    fi
done
expect_status 64 "--caps with --tune" -- "$MPIGUARD" concolic --caps --tune --dir both -- ./planted
grep -q -- "--caps, --tune and --uncapped" "$TMP/stderr" || fail "--caps --tune: no message saying why"
pass "planted's bugs in $tuned runs tuned, $capped with caps ($flavor); --fixed repeats counted"

