#!/bin/bash
# `mpiguard hang` through per-node agents: several agents on this machine stand in for nodes, each
# owning a share of the ranks (or, with AGENT_LAUNCHER, one agent started by the job's launcher). The
# hang is found and the faulty rank named through its agent; every agent said which ranks it owns;
# agents on this machine: every rank judged observed, through the sampler asked for; the report's
# monitor cost has every rank's held share (under ptrace above 0 for the faulty rank, which the
# scans find outside MPI and stop for its stack; 0 under shm). With a FANOUT,
# the agents are read through relays of FANOUT each (--agent-fanout): while it watches, mpiguard
# holds one connection per relay and none to an agent, and every relay reports.
# Usage: hang_agents.sh FLAVOR SAMPLER NAGENTS[/FANOUT] NRANKS [AGENT_LAUNCHER]
. "$(dirname "$0")/../lib.sh"
flavor=$1 sampler=$2 nagents=${3%/*} np=$4 agent_launcher=${5:-}
fanout=0
[ "$3" != "$nagents" ] && fanout=${3#*/}
faulty=$((np - 2))
app="$BUILD/examples/$flavor/cg"
agents=(--agents "$nagents")
[ -n "$agent_launcher" ] && agents=(--agent-launcher "$agent_launcher")
[ "$fanout" -gt 0 ] && agents+=(--agent-fanout "$fanout")
"$MPIGUARD" hang -v --sampler "$sampler" --seed 4 "${agents[@]}" --report "$TMP/r.json" -- $(launcher_for "$flavor") -n "$np" "$app" --seconds 300 --fault compute-loop --fault-rank $faulty --fault-at 20 >"$TMP/stdout" 2>"$TMP/stderr" &
guard=$!
# SIGINT stops the job with mpiguard, should an assertion end this script early
trap 'kill -INT $guard 2>/dev/null; wait $guard; rm -rf "$TMP"' EXIT
links=$nagents
if [ "$fanout" -gt 0 ]; then
    links=$(((nagents + fanout - 1) / fanout))
    for _ in $(seq 600); do grep -q "through $links relays" "$TMP/stderr" && break; sleep 0.1; done
    expect_stderr "the front reads them through $links relays of up to $fanout agents"
    # its sockets: the listener and one per relay, and not one TCP connection to an agent
    sockets=$(ls -l /proc/$guard/fd | grep -c 'socket:')
    tcp=$(ss -tnp state established | grep -c "pid=$guard,")
    [ "$sockets" -eq $((links + 1)) ] && [ "$tcp" -eq 0 ] ||
        fail "mpiguard holds $sockets sockets, $tcp TCP connections; expected $((links + 1)), 0"
fi
wait $guard
got=$?
[ $got -eq 81 ] || { cat "$TMP/stderr" >&2; fail "hang through agents: exit status $got, expected 81"; }
expect_stderr "$nagents agents own $np ranks"
[ "$(grep -c "mpiguard: hang: \(agent [0-9]* (ranks\|relay [0-9]* ([0-9]* agents\?, ranks\) " "$TMP/stderr")" -eq "$links" ] || { cat "$TMP/stderr"; fail "not every agent or relay reported"; }
python3 - "$TMP/r.json" "$faulty" "$np" "$sampler" "$agent_launcher" <<'PY' || fail "report"
import json, sys
r = json.load(open(sys.argv[1])); faulty, np = int(sys.argv[2]), int(sys.argv[3])
if not sys.argv[5]:
    obs = r["observation"]
    assert sorted(o["rank"] for o in obs) == list(range(np)), obs
    assert all(o["observed"] and o["cause"] == "observed" and o["sampler"] == sys.argv[4] for o in obs), obs
# what sampling cost, counted for every rank though agents read them all (ptrace: the segments
# answer the ranks inside MPI without a stop)
cost = r["tool_data"]["monitor_cost"]
by = cost["held_fraction_by_rank"]
assert len(by) == np and None not in by, cost
assert abs(sum(by) - cost["held_fraction"]) < 1e-6 and cost["frozen_s"] <= cost["held_s"], cost
if sys.argv[4] == "ptrace":
    assert cost["held_s"] > 0 and by[faulty] > 0, cost
else:
    assert cost["held_s"] == 0, cost
ev = r["findings"][0]["evidence"]
assert ev["hang_type"] == "computation" and ev["faulty_ranks"] == [faulty], ev["faulty_ranks"]
per = {e["rank"]: e for e in ev["per_rank"]}
assert len(per) == np and per[faulty]["function"] == "fault_compute_loop", per[faulty]
assert all(per[k]["stack"] for k in per), "a rank without a stack"
PY
token=$(grep -o 'MPIGUARD_JOB_TOKEN[= ][0-9a-f]*' "$TMP/stderr" | head -1 | cut -c20-)
sleep 0.5
[ -z "$(token_processes "$token")" ] || fail "processes of the job left"
pass "hang through $nagents agents, $links links to mpiguard ($flavor, $sampler, $np ranks)"
