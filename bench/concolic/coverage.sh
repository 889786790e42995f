#!/bin/bash
# Branch coverage over runs on every program of the suite (tests/concolic/programs: planted, heat,
# histogram): COMPI's bounded DFS (np and focus chosen by the solver, from np 1) vs random testing
# under the same caps, in two readings: from the program's default inputs (--strategy
# random-inputs: run 1 is the defaults at np 1, as in the other variants) and random from the
# first run (--strategy random-all: inputs, np and focus) vs a fixed-focus, fixed-size variant
# (--fixed: np 4, focus 0). Prints a row per program and variant (arms covered after the given
# runs; bugs; seconds), the suite's total (arms summed over the programs), the ratios of bounded
# DFS's arms to each random variant's and to the fixed variant's, per program and for the suite,
# and the arms bounded DFS left uncovered: the tables of docs/concolic-measurements.md "Measured" (Table 2.6's
# shape).
#   coverage.sh BUILD_DIR [RUNS] [FLAVOR]
set -eu
build=$1 runs=${2:-60} flavor=${3:-mpich}
. "$(dirname "$0")/setup.sh"
programs="planted heat histogram"
variants="bounded-dfs random-inputs random-all fixed-np4-focus0"
marks="1 $((runs / 6)) $((runs / 3)) $((2 * runs / 3)) $runs"
run() { # program, variant, options...
    local prog=$1 name=$2
    shift 2
    local t0=$SECONDS
    mpiguard concolic --max-np 6 --iterations "$runs" --timeout 20 --caps --dir "c-$prog-$name" "$@" \
        -- "./$prog" >"$prog-$name.out" 2>"$prog-$name.err" || true
    # Arms covered after each mark (the progress line of that iteration; the last one seen when a
    # campaign stopped early), then bugs and seconds.
    awk -v marks="$marks" '/concolic: run/ { split($12, a, "/"); c[$4] = a[1] }
        END { k = split(marks, m, " "); v = 0
              for (i = 1; i <= k; i++) { for (j = 1; j <= m[i]; j++) if (j in c) v = c[j]; printf "%s ", v }
              printf "\n" }' \
        "$prog-$name.err" >"$prog-$name.arms"
    printf "%s %s\n" "$(grep -c '^bug ' "c-$prog-$name/campaign" || true)" $((SECONDS - t0)) >>"$prog-$name.arms"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }

for prog in $programs; do
    run "$prog" bounded-dfs --np 1
    run "$prog" random-inputs --np 1 --strategy random-inputs
    run "$prog" random-all --np 1 --strategy random-all
    run "$prog" fixed-np4-focus0 --np 4 --focus 0 --fixed
done

set -- $marks
echo "$flavor, $runs runs per program and variant, --max-np 6, seed 1"
echo "| program (arms) | variant | arms @$1 | @$2 | @$3 | @$4 | @$5 | bugs | seconds |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
declare -A sum
for prog in $programs; do
    total=$((2 * $(grep -vc '^#' "$prog.mpiguard-branches.tsv")))
    sum[arms]=$(( ${sum[arms]:-0} + total ))
    for v in $variants; do
        read -r a1 a2 a3 a4 a5 < <(head -1 "$prog-$v.arms")
        read -r bugs secs < <(tail -1 "$prog-$v.arms")
        echo "| $prog ($total) | $v | $a1 | $a2 | $a3 | $a4 | $a5 | $bugs | $secs |"
        for k in 1 2 3 4 5 bugs secs; do
            case $k in bugs) x=$bugs ;; secs) x=$secs ;; *) eval "x=\$a$k" ;; esac
            sum[$v,$k]=$(( ${sum[$v,$k]:-0} + x ))
        done
    done
done
for v in $variants; do
    printf "| suite total (%s) | %s | %s | %s | %s | %s | %s | %s | %s |\n" "${sum[arms]}" "$v" \
        "${sum[$v,1]}" "${sum[$v,2]}" "${sum[$v,3]}" "${sum[$v,4]}" "${sum[$v,5]}" "${sum[$v,bugs]}" \
        "${sum[$v,secs]}"
done

echo
echo "| program | bounded DFS @$5 | random-inputs @$5 | random-all @$5 | fixed @$5 | DFS / random-inputs | DFS / random-all | DFS / fixed |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for prog in $programs; do
    d=$(cut -d' ' -f5 <"$prog-bounded-dfs.arms" | head -1)
    r=$(cut -d' ' -f5 <"$prog-random-inputs.arms" | head -1)
    a=$(cut -d' ' -f5 <"$prog-random-all.arms" | head -1)
    f=$(cut -d' ' -f5 <"$prog-fixed-np4-focus0.arms" | head -1)
    echo "| $prog | $d | $r | $a | $f | $(ratio "$d" "$r") | $(ratio "$d" "$a") | $(ratio "$d" "$f") |"
done
d=${sum[bounded-dfs,5]} r=${sum[random-inputs,5]} a=${sum[random-all,5]} f=${sum[fixed-np4-focus0,5]}
echo "| suite total | $d | $r | $a | $f | $(ratio "$d" "$r") | $(ratio "$d" "$a") | $(ratio "$d" "$f") |"

# Which arms bounded DFS left uncovered, per program (the campaign's final report).
for prog in $programs; do
    echo
    echo "$prog, bounded DFS, uncovered arms:"
    sed -n '/^uncovered arms/,/^cost:/p' "$prog-bounded-dfs.out" | sed '1d;$d' | sed "s|$src/||"
done
