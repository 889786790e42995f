#!/bin/bash
# Coverage over wall time on the real code (PETSc's ex5 with its options marked,
# tests/concolic/programs/petsc_ex5.c, Open MPI): bounded DFS with COMPI's caps (--caps)
# and with input tuning (the default) against random testing from the program's own inputs (--strategy
# random-inputs) and random from the first run (random-all), the four campaigns side by side so
# that each has the same budget under the same load: arms covered at 1/12, 1/6, 1/3, 1/2 and all
# of the budget, runs, bugs (docs/concolic-measurements-real.md "A real code: PETSc's ex5"). Given
# 300 seconds it is the test of itself (concolic_petsc_random_openmpi).
#   random_hour.sh BUILD_DIR [SECONDS]
set -eu
build=$1 budget=${2:-3600} flavor=openmpi targets=
. "$(dirname "$0")/setup.sh"
build_petsc_ex5
variants="tuning caps random-inputs random-all"
for v in $variants; do
    case $v in
        caps) mode=(--caps) ;;
        tuning) mode=() ;;
        *) mode=(--caps --strategy "$v") ;; # random under the caps, as COMPI's baseline
    esac
    stamped_campaign "$v" --np 2 --max-np 4 --time "$budget" --timeout 20 "${mode[@]}" -- ./petsc_ex5 &
done
wait
sleep 1 # the stamping loops end after their campaigns
marks="$((budget / 12)) $((budget / 6)) $((budget / 3)) $((budget / 2)) $budget"
total=$((2 * $(grep -vc '^#' petsc_ex5.mpiguard-branches.tsv)))
set -- $marks
echo "openmpi, PETSc ex5 ($total arms), --np 2 --max-np 4 --timeout 20, seed 1, $budget s each, side by side"
echo "| variant | arms @${1}s | @${2}s | @${3}s | @${4}s | @${5}s | runs | bugs |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for v in $variants; do
    runs=$(grep -c 'concolic: run' "$v.err" || true)
    bugs=$(grep -c '^bug ' "c-$v/campaign" || true)
    echo "| $v | $(arms_at "$v" "$marks")$runs | $bugs |"
done
