#!/bin/bash
# The chapter's Tables 3.1-3.3 on real code: PETSc's ex5 with the values it reads from the
# options database marked (tests/concolic/programs/petsc_ex5.c), built by PETSc's makefile
# against the installed PETSc (Open MPI), one campaign of the given seconds per configuration,
# one after the other, bounded DFS from np 2 (docs/concolic-measurements-real.md "A real code:
# PETSc's ex5"):
#   3.1 inputs: COMPI's caps (--caps), tuning (the default), neither (--uncapped): arms covered
#       over time, runs, tuning checks;
#   3.2 floats (with caps): over the reals (the default), IEEE doubles (--floats fp), concrete
#       (--floats off): arms, queries, solve seconds per 100 queries, float solutions that missed their arm;
#   3.3 integers (with caps): unbounded (the default) and bit-vectors (--int-semantics bv): arms, bugs,
#       solve seconds per 100 queries.
#   petsc.sh BUILD_DIR [SECONDS]
set -eu
build=$1 budget=${2:-180} flavor=openmpi targets=
. "$(dirname "$0")/setup.sh"
build_petsc_ex5
total=$((2 * $(grep -vc '^#' petsc_ex5.mpiguard-branches.tsv)))
declare -A options=([caps]="--caps" [tuning]="" [neither]="--uncapped" [fp]="--caps --floats fp"
    [floats-off]="--caps --floats off" [bv]="--caps --int-semantics bv")
for name in caps tuning neither fp floats-off bv; do
    # shellcheck disable=SC2086 # the options are words
    stamped_campaign "$name" --np 2 --max-np 4 --time "$budget" --timeout 20 ${options[$name]} \
        -- ./petsc_ex5
done
sleep 1 # the stamping loops end after their campaigns
# cost NAME FIELD: a number of the campaign's cost line, by the words after it.
cost() { sed -n "s/^cost: .* \([0-9.]*\) $2.*/\1/p" "$1.out" | head -1; }
per100() { awk -v s="$1" -v q="$2" 'BEGIN { if (q > 0) printf "%.2f", 100 * s / q; else printf "-" }'; }
solve_s() { awk -F'\t' '!/^#/ { s += $10 } END { printf "%.2f", s }' "c-$1/runs.tsv"; }
runs() { grep -vc '^#' "c-$1/runs.tsv" || true; }
bugs() { grep -c '^bug ' "c-$1/campaign" || true; }
queries() { sed -n 's/^cost: .*(\([0-9]*\) queries.*/\1/p' "$1.out"; }
marks="$((budget / 6)) $((budget / 3)) $((budget / 2)) $budget"
set -- $marks
echo "openmpi, PETSc ex5 ($total arms), --np 2 --max-np 4 --timeout 20, seed 1, $budget s per campaign"
echo
echo "| inputs | arms @${1}s | @${2}s | @${3}s | @${4}s | runs | bugs | tuning checks |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for name in caps tuning neither; do
    echo "| $name | $(arms_at "$name" "$marks")$(runs "$name") | $(bugs "$name") | $(cost "$name" "tuning checks") |"
done
echo
echo "| floats | arms @${4}s | runs | queries | solve s | solve s per 100 queries | float solutions (missed) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for name in caps fp floats-off; do
    q=$(queries "$name") s=$(solve_s "$name")
    echo "| ${name/caps/real} | $(arms_at "$name" "$budget")$(runs "$name") | $q | $s | $(per100 "$s" "$q") | $(cost "$name" "runs from float solutions") ($(sed -n 's/^cost: .*(\([0-9]*\) missed their arm).*/\1/p' "$name.out")) |"
done
echo
echo "| integers | arms @${4}s | runs | bugs | queries | solve s per 100 queries |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for name in caps bv; do
    q=$(queries "$name")
    echo "| ${name/caps/int} | $(arms_at "$name" "$budget")$(runs "$name") | $(bugs "$name") | $q | $(per100 "$(solve_s "$name")" "$q") |"
done
