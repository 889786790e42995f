#!/bin/bash
# Input tuning (--tune) against COMPI's caps (the default) on every program of the suite
# (tests/concolic/programs), bounded DFS from np 1 as tests/concolic/suite.sh runs it: arms
# covered after the given runs, the run after which each campaign had all its bugs, bugs,
# tuning checks, seconds (docs/concolic.md "Issue 30, part 2").
#   tuning.sh BUILD_DIR [RUNS] [FLAVOR]
set -eu
build=$1 runs=${2:-60} flavor=${3:-mpich}
. "$(dirname "$0")/setup.sh"
marks="$((runs / 6)) $((runs / 3)) $((2 * runs / 3)) $runs"
set -- $marks
echo "$flavor, $runs runs per program and mode, --np 1 --max-np 6, seed 1"
echo "| program (arms) | mode | arms @$1 | @$2 | @$3 | @$4 | bugs | runs to the last bug | tuning checks | seconds |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for prog in planted heat histogram; do
    total=$((2 * $(grep -vc '^#' "$prog.mpiguard-branches.tsv")))
    for mode in tuning caps; do
        tune=()
        [ "$mode" = tuning ] && tune=(--tune)
        t0=$SECONDS
        mpiguard concolic --np 1 --max-np 6 --iterations "$runs" --timeout 20 "${tune[@]}" \
            --dir "c-$prog-$mode" -- "./$prog" >"$prog-$mode.out" 2>"$prog-$mode.err" || true
        secs=$((SECONDS - t0))
        arms=$(awk -v marks="$marks" '!/^#/ { c[$1] = $5 }
            END { k = split(marks, m, " "); v = 0
                  for (i = 1; i <= k; i++) { for (j = 1; j <= m[i]; j++) if (j in c) v = c[j]; printf "%s | ", v } }' \
            "c-$prog-$mode/runs.tsv")
        bugs=$(grep -c '^bug ' "c-$prog-$mode/campaign" || true)
        last=$(awk -v b="$bugs" '/concolic: run/ && $(NF-1) == b { print $4; exit }' "$prog-$mode.err")
        checks=$(sed -n 's/^cost: .* \([0-9]*\) tuning checks.*/\1/p' "$prog-$mode.out")
        echo "| $prog ($total) | $mode | $arms$bugs | ${last:--} | ${checks:--} | $secs |"
    done
done
