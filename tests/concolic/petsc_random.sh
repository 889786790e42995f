#!/bin/bash
# The coverage-over-time script of the real code (bench/concolic/random_hour.sh, docs/concolic-
# measurements.md "A real code: PETSc's ex5"), given a short budget: its table has a row for each
# of its four campaigns, and the capped concolic search covers more of PETSc's ex5 than random
# testing from the program's own inputs under the same budget, at its end.
#   petsc_random.sh SECONDS
. "$(dirname "$0")/../lib.sh"
budget=$1
bench=$(cd "$(dirname "$0")/../../bench/concolic" && pwd)
cd "$TMP" || fail "no tmp dir"
bash "$bench/random_hour.sh" "$BUILD" "$budget" >table.md 2>err.log ||
    { cat err.log >&2; fail "random_hour.sh $budget"; }
cat table.md
# The arms at the end of the budget: the sixth cell of a variant's row.
arms() { awk -F'|' -v v="$1" '$2 ~ "^ " v " $" { gsub(/ /, "", $7); print $7 }' table.md; }
for v in caps tuning random-inputs random-all; do
    [ -n "$(arms "$v")" ] || fail "no row for $v"
done
[ "$(arms caps)" -gt "$(arms random-inputs)" ] ||
    fail "concolic covered $(arms caps) arms, random testing $(arms random-inputs)"
pass "PETSc ex5 in $budget s: $(arms caps) arms with caps, $(arms tuning) tuned, $(arms random-inputs) and $(arms random-all) random"
