#!/bin/bash
# Bit-vector against unbounded-integer semantics (--int-semantics bv | int, the dissertation's
# Table 3.3 turned to its future work) on the suite and on wraparound.c, bounded DFS from np 1 as
# tests/concolic/suite.sh runs it, with COMPI's caps (--caps, as the table was measured): arms
# covered, bugs (overflows among them), solver queries and Z3 time per 100 queries, seconds
# (docs/concolic-measurements-semantics.md "Bit-vector mode").
#   int_semantics.sh BUILD_DIR [RUNS] [FLAVOR]
set -eu
build=$1 runs=${2:-40} flavor=${3:-mpich}
. "$(dirname "$0")/setup.sh"
mpiguard-cc -o wraparound "$src/wraparound.c"
echo "$flavor, $runs runs per program and mode, --np 1 --max-np 6 --caps, seed 1"
echo "| program (arms) | semantics | arms | bugs | overflows | queries | solve s per 100 queries | seconds |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for prog in planted heat histogram wraparound; do
    total=$((2 * $(grep -vc '^#' "$prog.mpiguard-branches.tsv")))
    for sem in int bv; do
        t0=$SECONDS
        mpiguard concolic --np 1 --max-np 6 --iterations "$runs" --timeout 20 --caps --int-semantics "$sem" \
            --dir "c-$prog-$sem" -- "./$prog" >"$prog-$sem.out" 2>"$prog-$sem.err" || true
        secs=$((SECONDS - t0))
        arms=$(sed -n 's/^coverage: \([0-9]*\) of .*/\1/p' "$prog-$sem.out")
        bugs=$(grep -c '^bug ' "c-$prog-$sem/campaign" || true)
        overflows=$(grep -c '^bug overflow:' "c-$prog-$sem/campaign" || true)
        cost=$(sed -n 's/^cost: \([0-9]*\) runs .* solve \([0-9.]*\) s\/run (\([0-9]*\) queries.*/\1 \2 \3/p' "$prog-$sem.out")
        set -- $cost
        per100=$(awk -v r="$1" -v s="$2" -v q="$3" 'BEGIN { printf q ? "%.3f" : "-", r * s / q * 100 }')
        echo "| $prog ($total) | $sem | $arms | $bugs | $overflows | $3 | $per100 | $secs |"
    done
done
