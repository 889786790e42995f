#!/bin/sh
# Compares the detector's throughput of two builds (docs/design/check-detector.md §11): runs the
# check_detector_bench of each build alternately, ROUNDS times, so that both see the same load on
# the shared machine, and prints per row the median records/s of each, their ratio (new / base),
# and the range of each over the rounds (how much the load moved the figures).
# Usage: bench/check/detector_compare.sh BASE-BUILD NEW-BUILD [ROUNDS] [quick]
# Both build dirs must be configured (cmake -S <tree> -B <dir>); ROUNDS defaults to 3.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 BASE-BUILD NEW-BUILD [ROUNDS] [quick]" >&2; exit 64; }
base=$1 new=$2 rounds=${3:-3} mode=${4:-}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for build in "$base" "$new"; do
    cmake --build "$build" --target check_detector_bench -j2 >/dev/null
done
# The order alternates (base first in odd rounds, new first in even ones): on the shared machine
# the second run of a pair was often slower, even with the same binary on both sides.
i=1
while [ "$i" -le "$rounds" ]; do
    if [ $((i % 2)) -eq 1 ]; then
        "$base/bench/check_detector_bench" $mode >"$out/base.$i"
        "$new/bench/check_detector_bench" $mode >"$out/new.$i"
    else
        "$new/bench/check_detector_bench" $mode >"$out/new.$i"
        "$base/bench/check_detector_bench" $mode >"$out/base.$i"
    fi
    i=$((i + 1))
done
echo "Detector throughput, base $base vs new $new: median of $rounds alternating rounds"
echo "(thread CPU time; $(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "| workload | P | input | base records/s | new records/s | new / base | base range | new range |"
echo "|---|---|---|---|---|---|---|---|"
# The throughput rows: | workload | P | input | records | ns/rec | records/s | findings |
awk -F'|' '
    function trim(s) { gsub(/^ +| +$/, "", s); return s }
    # Sorts the numbers of a space-separated list into v[1..n]; returns n.
    function sorted(list, v,    n, i, j, t) {
        n = split(list, v, " ")
        for (i = 2; i <= n; i++)
            for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
        return n
    }
    function median(list,    v, n) {
        n = sorted(list, v)
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    function range(list,    v, n) {
        n = sorted(list, v)
        return sprintf("%.2f-%.2f M", v[1] / 1e6, v[n] / 1e6)
    }
    FNR == 1 { side = FILENAME ~ /\/base\.[0-9]+$/ ? "base" : "new" }
    NF == 9 && trim($4) ~ /^(event|bytes|enc)$/ {
        key = trim($2) " | " trim($3) " | " trim($4)
        if (!(key in seen)) { seen[key] = 1; order[++n] = key }
        rate[side, key] = rate[side, key] " " trim($7)
    }
    END {
        for (i = 1; i <= n; i++) {
            b = median(rate["base", order[i]]); w = median(rate["new", order[i]])
            ratio = b > 0 ? w / b : 0
            printf "| %s | %.0f | %.0f | %.2fx | %s | %s |\n", order[i], b, w, ratio,
                   range(rate["base", order[i]]), range(rate["new", order[i]])
        }
    }' "$out"/base.* "$out"/new.*
