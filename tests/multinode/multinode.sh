#!/bin/bash
# multinode.sh FLAVOR CASE: real 3-node jobs on namespace nodes (nodes.sh; docs/testing.md, "Nodes
# as namespaces").
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/nodes.sh"
flavor=$1 case=$2
: "${PROGS:?}"
mn_nodes_up 3
launcher=$(mn_launcher "$flavor")

case $case in
hello)
    # A plain job, no mpiguard: each rank on its own node, the allreduce crossing the bridge.
    expect_status_within 60 0 "3-node hello" "$PROGS/mn_hello" -- \
        mn_on 0 $launcher -n 3 "$PROGS/mn_hello"
    for r in 0 1 2; do
        grep -qx "rank $r of 3 on ${MN_ID}n$((r + 1)): sum 3" "$TMP/stdout" ||
            { cat "$TMP/stdout" "$TMP/stderr" >&2; fail "rank $r not on node $((r + 1)) or no sum"; }
    done
    pass "3-node hello ($flavor): ranks 0-2 on nodes 1-3, allreduce across them"
    ;;
*) fail "unknown case $case" ;;
esac
