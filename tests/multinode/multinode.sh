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
hang)
    # One agent per node through the job's own launcher; rank 2, on node 3, loops outside MPI.
    app="$BUILD/examples/$flavor/cg"
    expect_status_within 150 81 "3-node hang" "$app" -- mn_on 0 "$MPIGUARD" hang -v --seed 4 \
        --agent-launcher "$launcher -n 3" --report "$TMP/r.json" -- $launcher -n 3 "$app" \
        --seconds 300 --fault compute-loop --fault-rank 2 --fault-at 3
    expect_stderr "3 agents own 3 ranks"
    python3 - "$TMP/r.json" <<'PY' || { cat "$TMP/stderr" >&2; fail "report"; }
import json, sys
r = json.load(open(sys.argv[1]))
ev = r["findings"][0]["evidence"]
assert ev["hang_type"] == "computation" and ev["faulty_ranks"] == [2], ev
per = {e["rank"]: e for e in ev["per_rank"]}
assert sorted(per) == [0, 1, 2] and per[2]["function"] == "fault_compute_loop", per
assert all(per[k]["stack"] for k in per), "a rank without a stack"
PY
    pass "3-node hang ($flavor): rank 2 on node 3 named through its agent"
    ;;
linkdown)
    # Node 2 (rank 1) loses its link once the agents joined: its agent stops answering, the job
    # really hangs in its allreduce. mpiguard ends on its own, names rank 1 as not observed, and
    # does not call it exited (this node's /proc is not rank 1's).
    app="$BUILD/examples/$flavor/cg"
    mn_on 0 "$MPIGUARD" hang -v --seed 4 --agent-launcher "$launcher -n 3" --report "$TMP/r.json" \
        -- $launcher -n 3 "$app" --seconds 200 >"$TMP/stdout" 2>"$TMP/stderr" &
    guard=$!
    for _ in $(seq 600); do grep -q "agents own" "$TMP/stderr" && break; sleep 0.1; done
    sleep 3
    ip -n "${MN_ID}n2" link set eth0 down
    wait_ended $guard 180 || { cat "$TMP/stderr" >&2; fail "mpiguard still running 180 s after the link went down"; }
    wait $guard
    got=$?
    [ $got -eq 81 ] || { cat "$TMP/stderr" >&2; fail "exit status $got, expected 81"; }
    expect_stderr "rank 1 is not observed: its node's agent stopped answering"
    python3 - "$TMP/r.json" <<'PY' || { cat "$TMP/stderr" >&2; fail "report"; }
import json, sys
ev = json.load(open(sys.argv[1]))["findings"][0]["evidence"]
state = {e["rank"]: e["state"] for e in ev["per_rank"]}
assert ev["hang_type"] == "communication" and state == {0: "IN_MPI", 1: "UNKNOWN", 2: "IN_MPI"}, ev
PY
    pass "3-node hang ($flavor), node 2's link down: rank 1 named not observed, no verdict on it"
    ;;
*) fail "unknown case $case" ;;
esac
