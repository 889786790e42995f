#!/bin/bash
# Does bounded DFS move? On every program of the suite (tests/concolic/programs), from np 4 and
# focus 0 as HPL's campaign started (issue 30: it kept them in 495 of 516 runs), bounded DFS as
# COMPI has it (--stall 0) against the search that leaves a stalled subtree (the default,
# --stall 20; docs/design/concolic-solver.md §7.1). Prints a row per program and variant:
# arms covered after the given runs, bugs, the runs spent at np 4 focus 0, the distinct
# (np, focus) pairs run, the leaves and moves of the stalled search, seconds.
#   moves.sh BUILD_DIR [RUNS] [FLAVOR]
set -eu
build=$1 runs=${2:-60} flavor=${3:-mpich}
. "$(dirname "$0")/setup.sh"
programs="planted heat histogram"
marks="$((runs / 6)) $((runs / 3)) $((2 * runs / 3)) $runs"
set -- $marks
echo "$flavor, $runs runs per program and variant, from --np 4 --focus 0, --max-np 6, seed 1"
echo "| program (arms) | variant | arms @$1 | @$2 | @$3 | @$4 | bugs | runs at np 4 focus 0 | (np, focus) pairs | leaves | moves | seconds |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for prog in $programs; do
    total=$((2 * $(grep -vc '^#' "$prog.mpiguard-branches.tsv")))
    for stall in 0 20; do
        t0=$SECONDS
        mpiguard concolic --np 4 --focus 0 --max-np 6 --iterations "$runs" --timeout 20 --caps \
            --stall "$stall" --dir "c-$prog-$stall" -- "./$prog" >"$prog-$stall.out" 2>/dev/null || true
        secs=$((SECONDS - t0))
        tsv="c-$prog-$stall/runs.tsv"
        arms=$(awk -v marks="$marks" '!/^#/ { c[$1] = $5 }
            END { k = split(marks, m, " "); v = 0
                  for (i = 1; i <= k; i++) { for (j = 1; j <= m[i]; j++) if (j in c) v = c[j]; printf "%s | ", v } }' "$tsv")
        at40=$(awk '!/^#/ && $2 == 4 && $3 == 0' "$tsv" | wc -l)
        pairs=$(awk '!/^#/ { print $2 " " $3 }' "$tsv" | sort -u | wc -l)
        bugs=$(grep -c '^bug ' "c-$prog-$stall/campaign" || true)
        read -r leaves moves < <(sed -n 's/^cost: .*, \([0-9]*\) leaves of a stalled subtree, \([0-9]*\) moves.*/\1 \2/p' "$prog-$stall.out")
        echo "| $prog ($total) | --stall $stall | $arms$bugs | $at40 | $pairs | ${leaves:--} | ${moves:--} | $secs |"
    done
done
