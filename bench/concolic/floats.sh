#!/bin/bash
# Floats solved over the reals, over Z3's IEEE doubles, or kept concrete (--floats real | fp | off;
# the dissertation's Table 3.1, and the coverage its §3.5 compares) on the float test programs
# and on heat.c (whose temperatures are doubles computed from integer inputs), bounded DFS from np 1
# with COMPI's caps (--caps, as the table was measured): arms covered, bugs, solver queries, runs
# from float solutions and how many missed their arm, Z3 time per 100 queries, seconds
# (docs/concolic-measurements-semantics.md "Floats").
#   floats.sh BUILD_DIR [RUNS] [FLAVOR]
set -eu
build=$1 runs=${2:-30} flavor=${3:-mpich}
. "$(dirname "$0")/setup.sh"
mpiguard-cc -o floats "$src/floats.c"
mpiguard-cc -o float_rules "$src/float_rules.c" -lm
echo "$flavor, $runs runs per program and mode, --np 1 --max-np 2 --caps, seed 1, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| program (arms) | floats | arms | bugs | queries | float solutions (missed) | solve s per 100 queries | seconds |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for prog in floats float_rules heat; do
    total=$((2 * $(grep -vc '^#' "$prog.mpiguard-branches.tsv")))
    for mode in real fp off; do
        t0=$SECONDS
        mpiguard concolic --np 1 --max-np 2 --iterations "$runs" --timeout 20 --caps --floats "$mode" \
            --dir "c-$prog-$mode" -- "./$prog" >"$prog-$mode.out" 2>"$prog-$mode.err" || true
        secs=$((SECONDS - t0))
        arms=$(sed -n 's/^coverage: \([0-9]*\) of .*/\1/p' "$prog-$mode.out")
        bugs=$(grep -c '^bug ' "c-$prog-$mode/campaign" || true)
        cost=$(sed -n 's/^cost: \([0-9]*\) runs .* solve \([0-9.]*\) s\/run (\([0-9]*\) queries.* \([0-9]*\) runs from float solutions (\([0-9]*\) missed.*/\1 \2 \3 \4 \5/p' "$prog-$mode.out")
        set -- $cost
        per100=$(awk -v r="$1" -v s="$2" -v q="$3" 'BEGIN { printf q ? "%.3f" : "-", r * s / q * 100 }')
        echo "| $prog ($total) | $mode | $arms | $bugs | $3 | $4 ($5) | $per100 | $secs |"
    done
done
