#!/bin/bash
# `mpiguard check` across nodes against one node (docs/check-measurements-overhead.md, "Across nodes"): for
# each MPI, tests/multinode's deadlock (mn_deadlock), a clean hello (mn_hello) and the cg example
# (--iterations 40) run under check on this machine and on 3 namespace nodes with one agent each
# (tests/multinode/nodes.sh, --agent-launcher), plus the plain 3-node launch; prints each wall time
# (median of REPS) and whether the findings (kind, ranks, knot, every call's function, file, line)
# and the exit statuses are equal.
#   bench/check/across_nodes.sh [BUILD] [REPS]
build=$(realpath "${1:-build}") reps=${2:-3}
export MPIGUARD=$build/bin/mpiguard BUILD=$build
here=$(dirname "$0")/../../tests
. "$here/lib.sh"
. "$here/multinode/nodes.sh"
mn_nodes_up 3

# run_timed OUT_JSON COMMAND...: runs it, prints "SECONDS STATUS".
run_timed() {
    local start status
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    status=$?
    echo "$(echo "$(date +%s.%N) - $start" | bc) $status"
}

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

essence() {
    python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(sorted((f["kind"], f["ranks"], f["evidence"].get("knot"),
              sorted((s["rank"], s["function"], (s["file"] or "").rsplit("/", 1)[-1], s["line"])
                     for s in f["sites"])) for f in r["findings"]))
PY
}

echo "| MPI | program | one node: s (exit) | 3 nodes: s (exit) | plain 3-node launch: s | findings equal |"
echo "| --- | --- | --- | --- | --- | --- |"
for flavor in openmpi mpich; do
    nodes=$(mn_launcher $flavor)
    one=$(launcher_for $flavor)
    for program in mn_deadlock mn_hello cg; do
        binary=$build/tests/multinode/$flavor/$program args=()
        [ $program = cg ] && binary=$build/examples/$flavor/cg args=(--iterations 40)
        declare -a t1=() t3=() tp=()
        same=yes
        for ((i = 0; i < reps; i++)); do
            read -r s e1 < <(run_timed "$MPIGUARD" check --report "$TMP/one.json" -- $one -n 3 \
                "$binary" "${args[@]}")
            t1+=("$s")
            read -r s e3 < <(run_timed mn_on 0 "$MPIGUARD" check --agent-launcher "$nodes -n 3" \
                --report "$TMP/many.json" -- $nodes -n 3 "$binary" "${args[@]}")
            t3+=("$s")
            if [ $program != mn_deadlock ]; then
                read -r s _ < <(run_timed mn_on 0 $nodes -n 3 "$binary" "${args[@]}")
                tp+=("$s")
            fi
            [ "$e1" = "$e3" ] && [ "$(essence "$TMP/one.json")" = "$(essence "$TMP/many.json")" ] ||
                same="no (run $i: exit $e1 / $e3)"
        done
        plain=-
        [ ${#tp[@]} -eq 0 ] || plain=$(printf '%.1f' "$(printf '%s\n' "${tp[@]}" | median)")
        printf '| %s | %s | %.1f (%s) | %.1f (%s) | %s | %s |\n' $flavor $program \
            "$(printf '%s\n' "${t1[@]}" | median)" "$e1" "$(printf '%s\n' "${t3[@]}" | median)" \
            "$e3" "$plain" "$same"
    done
done
