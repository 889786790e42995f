#!/bin/bash
# Input tuning (the default) against COMPI's caps (--caps) and neither (--uncapped: the solver's
# values as they come), the chapter's Table 3.1, on every program of the suite
# (tests/concolic/programs), bounded DFS from np 1 as tests/concolic/suite.sh runs it, each
# program's campaigns (every mode and seed) side by side: arms covered after the given runs,
# the run after which each campaign had all its bugs, bugs, tuning checks, seconds
# (docs/concolic-measurements.md "Input tuning"). STRATEGY (a --strategy name) searches every
# mode with it instead of the default's, to weigh another default on the suite.
#   [STRATEGY=...] tuning.sh BUILD_DIR [RUNS] [FLAVOR] [SEEDS] [PROGRAMS]
set -eu
build=$1 runs=${2:-60} flavor=${3:-mpich} seeds=${4:-1 2 3} programs=${5:-planted heat histogram}
. "$(dirname "$0")/setup.sh"
modes="tuning caps neither"
marks="$((runs / 6)) $((runs / 3)) $((2 * runs / 3)) $runs"
set -- $marks
strategy=()
[ -z "${STRATEGY-}" ] || strategy=(--strategy "$STRATEGY")
echo "$flavor, $runs runs per program, mode and seed, --np 1 --max-np 6 --timeout 20 ${strategy[*]}"
echo "| program (arms) | mode | seed | arms @$1 | @$2 | @$3 | @$4 | bugs | runs to the last bug | tuning checks | seconds |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for prog in $programs; do
    for mode in $modes; do
        tune=("${strategy[@]}")
        case $mode in caps) tune+=(--caps) ;; neither) tune+=(--uncapped) ;; esac
        for seed in $seeds; do
            c=$prog-$mode-$seed
            (t0=$SECONDS
             mpiguard concolic --np 1 --max-np 6 --iterations "$runs" --timeout 20 --seed "$seed" \
                 "${tune[@]}" --dir "c-$c" -- "./$prog" >"$c.out" 2>"$c.err" || true
             echo $((SECONDS - t0)) >"$c.secs") &
        done
    done
    wait
    total=$((2 * $(grep -vc '^#' "$prog.mpiguard-branches.tsv")))
    for mode in $modes; do
        for seed in $seeds; do
            c=$prog-$mode-$seed
            arms=$(awk -v marks="$marks" '!/^#/ { c[$1] = $5 }
                END { k = split(marks, m, " "); v = 0
                      for (i = 1; i <= k; i++) { for (j = 1; j <= m[i]; j++) if (j in c) v = c[j]; printf "%s | ", v } }' \
                "c-$c/runs.tsv")
            bugs=$(grep -c '^bug ' "c-$c/campaign" || true)
            last=$(awk -v b="$bugs" '/concolic: run/ && $(NF-1) == b { print $4; exit }' "$c.err")
            checks=$(sed -n 's/^cost: .* \([0-9]*\) tuning checks.*/\1/p' "$c.out")
            echo "| $prog ($total) | $mode | $seed | $arms$bugs | ${last:--} | ${checks:--} | $(cat "$c.secs") |"
        done
    done
done
