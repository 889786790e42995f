#!/bin/bash
# sweep.sh: the multinode cleanup fixture (nodes.sh, mn_sweep): tears down the nodes of runs that
# were killed before their trap could. sweep.sh killed: proves it, on a run SIGKILLed as CTest's
# timeout does, while its nodes are up.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/nodes.sh"
if [ "${1:-}" != killed ]; then
    mn_sweep
    pass "multinode sweep: no node of a killed run left"
    exit 0
fi
bash -c '. "$1/../lib.sh"; . "$1/nodes.sh"; mn_nodes_up 2; echo "$MN_ID" >"$2"; sleep 600' \
    sh "$(dirname "$0")" "$TMP/id" >/dev/null 2>&1 &
run=$!
for _ in $(seq 300); do [ -s "$TMP/id" ] && break; sleep 0.1; done
[ -s "$TMP/id" ] || { kill $run; fail "the nodes did not come up"; }
id=$(cat "$TMP/id")
kill -KILL $run
wait $run 2>/dev/null
ip netns list | grep -q "^${id}n" || fail "the run's namespaces were gone before the sweep"
held=$(for k in 0 1 2; do ip netns pids "${id}n$k"; done)
[ -n "$held" ] || fail "no process on the run's nodes before the sweep"
mn_sweep
left=$(ip netns list | grep "^${id}n" || true)
[ -z "$left" ] || fail "namespaces left after the sweep: $left"
! ip link show "${id}b" >/dev/null 2>&1 || fail "bridge ${id}b left after the sweep"
[ ! -e "$MN_RUNS/$id" ] || fail "the run's record left after the sweep"
for pid in $held; do
    # a killed process stays a zombie until its parent (here, init) reaps it
    for _ in $(seq 50); do
        state=$(ps -o stat= -p "$pid" | cut -c1)
        [ -n "$state" ] && [ "$state" != Z ] || break
        sleep 0.1
    done
    [ -z "$state" ] || [ "$state" = Z ] || fail "process $pid of the run's nodes left after the sweep ($state)"
done
pass "multinode sweep: a run SIGKILLed with 3 nodes up leaves no namespace, bridge or holder"
