#!/bin/bash
# The planted-bug suite of `mpiguard concolic` (docs/concolic.md "Proof"): builds the planted target
# with `make CC=mpiguard-cc` for one MPI and asserts that a bounded-DFS campaign finds every planted
# bug within the stated budget, each with a reproducer that reproduces it. The per-run timeout is
# generous: Open MPI takes ~15 s to end a job whose ranks exit non-zero (rejected inputs), and the
# shared machine runs at load 20-70.
#   suite.sh FLAVOR ITERATIONS
. "$(dirname "$0")/../lib.sh"
flavor=$1 budget=$2
src=$(cd "$(dirname "$0")/programs" && pwd)
export PATH="$BUILD/bin:$PATH" MPIGUARD_MPI=$flavor
cd "$TMP" || fail "no tmp dir"
make -s -f "$src/Makefile" SRC="$src" CC=mpiguard-cc >make.out 2>&1 || { cat make.out; fail "make CC=mpiguard-cc"; }
[ -x planted ] && [ -x planted.mpiguard-heavy ] && [ -s planted.mpiguard-branches.tsv ] || fail "outputs of mpiguard-cc"
# Branch ids are global across the two units: the table numbers them 0..n-1 and names both files.
awk -F'\t' '!/^#/ { if ($1 != n++) exit 1 }' planted.mpiguard-branches.tsv || fail "branch ids not dense"
grep -q planted_solver.c planted.mpiguard-branches.tsv || fail "second unit missing from the table"

expect_status 80 "campaign" -- "$MPIGUARD" concolic --np 1 --max-np 6 --iterations "$budget" \
    --timeout 60 --dir camp --report report.json -- ./planted
for bug in "signal:11:$src/planted.c:60" "assertion:6:$src/planted.c:62" "signal:8:$src/planted.c:37" \
           "signal:11:$src/planted.c:65" "assertion:6:after $src/planted_solver.c:16"; do
    grep -qF "bug $bug" camp/campaign || { cat camp/campaign "$TMP/stderr" >&2; fail "planted bug $bug not found in $budget runs"; }
done
# B3 needs an even process count (2 or 4), B2 rank 2, B5 three processes.
grep -l "key signal:8:" camp/bugs/*.txt | xargs grep -qE "^np (2|4)$" || fail "B3 not at 2 or 4 processes"
grep -l "planted.c:65" camp/bugs/*.txt | xargs grep -q "^np 3$" || fail "B5 not at 3 processes"
grep -l "planted.c:62" camp/bugs/*.txt | xargs grep -q "^rank 2$" || fail "B2 not on rank 2"
[ "$(grep -c '"kind":"concolic_bug"' <(tr -d ' \n' <report.json | sed 's/},{/}\n{/g'))" -ge 1 ] || fail "report lacks concolic_bug findings"
grep -q "coverage:" "$TMP/stdout" && grep -q "uncovered arms:" "$TMP/stdout" || fail "coverage report"

# Each reproducer reproduces: B1's command, run again, crashes with SIGSEGV at the same line.
repro=$(grep -l "planted.c:60" camp/bugs/*.txt)
cmd=$(sed -n 's/^command //p' "$repro")
inputs=$(sed -n 's/^inputs //p' "$repro")
printf '%s\n' $inputs >camp/run/inputs
(eval "$cmd") >repro.out 2>&1 && fail "reproducer of B1 ran clean"
grep -q "^signal 11" camp/run/rank-0.outcome || fail "reproducer of B1 did not crash by SIGSEGV"
pass "all planted bugs found with $flavor within $budget runs"
