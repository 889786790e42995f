#!/bin/bash
# Branch coverage over runs: COMPI's bounded DFS vs random testing under the same caps
# (--strategy random-inputs) vs a fixed-focus, fixed-size variant (--fixed: np 4, focus 0), on the
# planted target (tests/concolic/programs). Prints a table for docs/concolic.md (Table 2.6's shape).
#   coverage.sh BUILD_DIR [RUNS] [FLAVOR]
set -eu
build=$1 runs=${2:-60} flavor=${3:-mpich}
. "$(dirname "$0")/setup.sh"
total=$(grep -vc '^#' planted.mpiguard-branches.tsv)
run() { # name, options...
    local name=$1
    shift
    local t0=$SECONDS
    mpiguard concolic --max-np 6 --iterations "$runs" --timeout 20 --dir "c-$name" "$@" -- ./planted \
        >"$name.out" 2>"$name.err" || true
    local at
    at=$(awk -v n="$runs" '/concolic: iteration/ { split($9, a, "/"); c[$4] = a[1] }
        END { printf "%s %s %s %s", c[int(n/6)], c[int(n/3)], c[int(2*n/3)], c[n] }' "$name.err")
    printf "| %s | %s | %s | %s | %s | %d | %d |\n" "$name" $at "$(grep -c '^bug ' "c-$name/campaign")" \
        $((SECONDS - t0))
}
echo "planted target, $flavor, $((2 * total)) branch arms, $runs runs each"
echo "| variant | arms @$((runs / 6)) | @$((runs / 3)) | @$((2 * runs / 3)) | @$runs | bugs | seconds |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
run bounded-dfs --np 1
run random-inputs --np 1 --strategy random-inputs
run fixed-np4-focus0 --np 4 --focus 0 --fixed
