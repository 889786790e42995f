#!/bin/bash
# multinode.sh FLAVOR CASE: real 3-node jobs on namespace nodes (nodes.sh; docs/testing.md, "Nodes
# as namespaces").
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/nodes.sh"
flavor=$1 case=$2
# MPICH's UCX over TCP on the nodes' interface only, as mn_launcher's btl_tcp_if_include for Open
# MPI: with its default transports MPI_Init across the nodes failed under load ("Endpoint timeout"
# in initial_address_exchange): under srun in 3 of 7 runs, under Hydra (check-unclaimed-leaves) in
# 4 of 6 at load 25-30; on the interface alone still in 2 of 3; never so with TCP alone.
[ "$flavor" != mpich ] || export UCX_NET_DEVICES=eth0 UCX_TLS=self,tcp
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
    python3 - "$TMP/r.json" "$MN_ID" <<'PY' || { cat "$TMP/stderr" >&2; fail "report"; }
import json, sys
r = json.load(open(sys.argv[1]))
f = r["findings"][0]
ev = f["evidence"]
assert ev["hang_type"] == "computation" and ev["faulty_ranks"] == [2] and f["ranks"] == [2], ev
assert "rank 2 " in f["summary"] and "fault_compute_loop" in f["summary"], f["summary"]
per = {e["rank"]: e for e in ev["per_rank"]}
assert sorted(per) == [0, 1, 2] and per[2]["function"] == "fault_compute_loop", per
assert per[2]["state"] == "OUT_MPI" and all(per[k]["state"] == "IN_MPI" for k in (0, 1)), per
assert all(per[k]["stack"] for k in per), "a rank without a stack"
assert any("fault_compute_loop" in fr for fr in per[2]["stack"]), per[2]["stack"]
hosts = {k: per[k]["host"] for k in per}
assert hosts == {k: "%sn%d" % (sys.argv[2], k + 1) for k in range(3)}, hosts
assert {e["rank"]: e["host"] for e in r["job"]["ranks"]} == hosts, r["job"]["ranks"]
PY
    pass "3-node hang ($flavor): rank 2 named on node 3 computing in fault_compute_loop, its stack through its agent"
    ;;
hang-culprit | hang-culprit-relays)
    # Every rank waits quietly in MPI, each on its own node: the culprit is known only from what
    # the ranks published, which their agents forward with their stacks. Rank 2 (node 3) waits
    # for a message rank 0 never sends, behind ranks 0 and 1 in the world's collectives. With
    # relays (--agent-fanout 2), the stacks and waits come through them.
    prog="$PROGS/mn_behind"
    relays=()
    [ "$case" = hang-culprit-relays ] && relays=(--agent-fanout 2)
    expect_status_within 120 81 "3-node hang with a remote culprit" "$prog" -- mn_on 0 \
        "$MPIGUARD" hang -v --seed 4 --agent-launcher "$launcher -n 3" "${relays[@]}" \
        --report "$TMP/r.json" -- $launcher -n 3 "$prog"
    [ "$case" = hang-culprit ] || expect_stderr "the front reads them through 2 relays of up to 2 agents"
    expect_stderr "culprit: ranks 0-1 wait on rank 2 (MPI_Allreduce, collective 1 on MPI_COMM_WORLD); rank 2 entered fewer collectives than they did; it waits in MPI_Recv"
    python3 - "$TMP/r.json" "$MN_ID" <<'PY' || { cat "$TMP/stderr" >&2; fail "report"; }
import json, sys
ev = json.load(open(sys.argv[1]))["findings"][0]["evidence"]
c = ev["culprit"]
assert ev["hang_type"] == "communication" and ev["faulty_ranks"] == [2], ev
assert c["ranks"] == [2] and c["reason"] == "behind", c
assert c["waited_on_directly_by"] == [0, 1], c
per = {e["rank"]: e for e in ev["per_rank"]}
assert per[2]["host"] == "%sn3" % sys.argv[2], per[2]
w = per[2]["waits_for"]
assert w["on"] == "peer" and w["call"]["peer"] == 0 and w["call"]["tag"] == 7, w
assert w["call"]["world_ranks"] and w["world_collectives"] == 0, w
assert all(per[k]["waits_for"]["on"] == "all" and per[k]["waits_for"]["world_collectives"] == 1
           for k in (0, 1)), per
PY
    pass "3-node hang ($flavor${relays[*]:+, through relays}): rank 2 on node 3 named the culprit, behind in the collectives, by the waits its agent forwarded"
    ;;
linkdown | linkdown-relays)
    # Node 2 (rank 1) loses its link once the agents joined: its agent stops answering, the job
    # really hangs in its allreduce. mpiguard ends on its own, names rank 1 as not observed, and
    # does not call it exited (this node's /proc is not rank 1's). With relays (--agent-fanout 2),
    # node 2's agent is behind one, which loses it and tells mpiguard so in its answers.
    app="$BUILD/examples/$flavor/cg"
    relays=()
    [ "$case" = linkdown-relays ] && relays=(--agent-fanout 2)
    mn_on 0 "$MPIGUARD" hang -v --seed 4 --agent-launcher "$launcher -n 3" "${relays[@]}" \
        --report "$TMP/r.json" -- $launcher -n 3 "$app" --seconds 200 >"$TMP/stdout" 2>"$TMP/stderr" &
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
    [ "$case" = linkdown ] || expect_stderr "the front reads them through 2 relays of up to 2 agents"
    pass "3-node hang ($flavor${relays[*]:+, through relays}), node 2's link down: rank 1 named not observed, no verdict on it"
    ;;
check-deadlock | check-deadlock-leaves)
    # The same deadlock on one node and across three: the same finding (kind, ranks, knot, every
    # rank's call and file:line), the ranks on their own nodes in the report. With leaves
    # (--detector-leaves 3), a leaf beside each node's agent: its share is that node's rank, so
    # every call of the deadlock goes up to the root, which finds it as the single detector does.
    prog="$PROGS/mn_deadlock"
    leaves=()
    [ "$case" = check-deadlock ] || leaves=(--detector-leaves 3)
    expect_status_within 60 82 "1-node check" "$prog" -- \
        "$MPIGUARD" check --report "$TMP/one.json" -- "$(launcher_for "$flavor")" -n 3 "$prog"
    expect_status_within 120 82 "3-node check" "$prog" -- mn_on 0 "$MPIGUARD" check -v \
        --agent-launcher "$launcher -n 3" "${leaves[@]}" --report "$TMP/r.json" -- $launcher -n 3 "$prog"
    expect_stderr "ERROR DEADLOCK"
    [ "$case" = check-deadlock ] || expect_stderr "the stream from ${MN_ID}n2 joined with its node's ranks (1, the first 1)"
    python3 - "$TMP/one.json" "$TMP/r.json" "$MN_ID" ${#leaves[@]} <<'PY' || { cat "$TMP/stderr" >&2; fail "report"; }
import json, sys
one, many = (json.load(open(p)) for p in sys.argv[1:3])
leaves = 3 if sys.argv[4] != "0" else 0
assert many["tool_data"]["detector"] == {"leaves": leaves, "levels": 2 if leaves else 1}, many["tool_data"]["detector"]
def essence(r):
    return [(f["kind"], f["ranks"], f["evidence"].get("knot"),
             sorted((s["rank"], s["function"], s["file"].rsplit("/", 1)[-1], s["line"])
                    for s in f["sites"])) for f in r["findings"]]
assert essence(one) == essence(many), (essence(one), essence(many))
f = many["findings"][0]
assert f["kind"] == "deadlock" and {0, 1} <= set(f["ranks"]), f
lines = {s["rank"]: s["line"] for s in f["sites"]}
assert lines[0] == lines[1] == 12, lines
hosts = {e["rank"]: e["host"] for e in many["job"]["ranks"]}
assert hosts == {k: "%sn%d" % (sys.argv[3], k + 1) for k in range(3)}, hosts
assert all(o["observed"] and o["sampler"] == "ring" for o in many["observation"]), many["observation"]
PY
    pass "3-node check ($flavor${leaves[*]:+, a leaf per node}): the deadlock of ranks 0 and 1 on nodes 1 and 2 at line 12, as on one node"
    ;;
check-clean | check-clean-leaves)
    # A correct job across three nodes: every rank observed through its node's agent, exit 0; with
    # leaves, through the leaf beside each agent (the allreduce summed up at each leaf).
    leaves=()
    [ "$case" = check-clean ] || leaves=(--detector-leaves 3)
    expect_status_within 90 0 "3-node clean check" "$PROGS/mn_hello" -- mn_on 0 "$MPIGUARD" check \
        --agent-launcher "$launcher -n 3" "${leaves[@]}" --report "$TMP/r.json" -- $launcher -n 3 "$PROGS/mn_hello"
    expect_stderr "nothing found in 3 of 3 ranks observed"
    python3 - "$TMP/r.json" "$MN_ID" ${#leaves[@]} <<'PY' || { cat "$TMP/stderr" >&2; fail "report"; }
import json, sys
r = json.load(open(sys.argv[1]))
leaves = 3 if sys.argv[3] != "0" else 0
assert r["tool_data"]["detector"] == {"leaves": leaves, "levels": 2 if leaves else 1}, r["tool_data"]["detector"]
assert r["findings"] == [] and r["job"]["exit_status"] == 0, r["findings"]
hosts = {e["rank"]: e["host"] for e in r["job"]["ranks"]}
assert hosts == {k: "%sn%d" % (sys.argv[2], k + 1) for k in range(3)}, hosts
obs = {o["rank"]: (o["observed"], o["cause"], o["sampler"]) for o in r["observation"]}
assert obs == {k: (True, "observed", "ring") for k in range(3)}, obs
PY
    pass "3-node clean check ($flavor${leaves[*]:+, a leaf per node}): ranks 0-2 observed on nodes 1-3, exit 0"
    ;;
check-leaves-mapped | check-leaves-mapped-srun)
    # Ranks placed round robin on the three nodes. Open MPI's --map-by node, Hydra's one slot per
    # host: 6 ranks, node 1 holds ranks 0 and 3, node 2 ranks 1 and 4, node 3 ranks 2 and 5. Under
    # Slurm on the nodes (mn_slurm_up), srun's cyclic distribution of 4 ranks: node 1 holds ranks 0
    # and 3, the others one (SLURM_STEP_TASKS_PER_NODE "2,1(x2)"), the agents go through an srun of
    # their own, and each node's agent waits for as many ranks as the step's layout gives its node,
    # found by its name in SLURM_STEP_NODELIST. Each node's leaf streams its node's ranks,
    # whichever they are: the deadlock of ranks 0 and 1 (their barrier partners waiting) is found
    # as on one node, every rank observed on its node; a clean job is clean, its allreduce summed
    # up at each leaf.
    if [ "$case" = check-leaves-mapped ]; then
        n=6 agents="$launcher -n 3" job=($launcher -n 6) how=""
    else
        mn_slurm_up
        n=4 agents="srun -N 3 --ntasks-per-node=1" how=" under srun"
        job=($(LAUNCH_VIA=srun launcher_for "$flavor") -N 3 -n 4 --distribution=cyclic)
    fi
    prog="$PROGS/mn_deadlock"
    expect_status_within 60 82 "1-node check of $n ranks" "$prog" -- \
        "$MPIGUARD" check --report "$TMP/one.json" -- "$(launcher_for "$flavor")" -n $n "$prog"
    expect_status_within 120 82 "3-node check of $n ranks round robin through leaves" "$prog" -- \
        mn_on 0 "$MPIGUARD" check -v --mpi "$flavor" --agent-launcher "$agents" --detector-leaves 3 \
        --report "$TMP/r.json" -- "${job[@]}" "$prog"
    expect_stderr "ERROR DEADLOCK"
    expect_stderr "the stream from ${MN_ID}n1 joined with its node's ranks (2, the first 0)"
    python3 - "$TMP/one.json" "$TMP/r.json" "$MN_ID" $n <<'PY' || { cat "$TMP/stderr" >&2; fail "report"; }
import json, sys
one, many = (json.load(open(p)) for p in sys.argv[1:3])
n = int(sys.argv[4])
assert many["tool_data"]["detector"] == {"leaves": 3, "levels": 2}, many["tool_data"]["detector"]
def essence(r):
    return [(f["kind"], f["ranks"], f["evidence"].get("knot"),
             sorted((s["rank"], s["function"], s["file"].rsplit("/", 1)[-1], s["line"])
                    for s in f["sites"])) for f in r["findings"]]
assert essence(one) == essence(many), (essence(one), essence(many))
assert many["findings"][0]["kind"] == "deadlock" and {0, 1} <= set(many["findings"][0]["ranks"])
hosts = {e["rank"]: e["host"] for e in many["job"]["ranks"]}
assert hosts == {k: "%sn%d" % (sys.argv[3], k % 3 + 1) for k in range(n)}, hosts
obs = {o["rank"]: (o["observed"], o["sampler"]) for o in many["observation"]}
assert obs == {k: (True, "ring") for k in range(n)}, obs
PY
    # -v: each node's agent says what it found too (cmd_check passes -v on), should a rank go
    # unobserved. Under srun an Open MPI rank used to die in MPI_Init (SIGSEGV at address 0) in 2
    # of 26 runs: Slurm's barrier fence did not span the nodes (srun-late-fence says how).
    expect_status_within 120 0 "3-node clean check of $n ranks round robin" "$PROGS/mn_hello" -- \
        mn_on 0 "$MPIGUARD" check -v --mpi "$flavor" --agent-launcher "$agents" --detector-leaves 3 \
        --report "$TMP/r.json" -- "${job[@]}" "$PROGS/mn_hello"
    expect_stderr "nothing found in $n of $n ranks observed"
    pass "3-node check ($flavor$how) of $n ranks round robin, a leaf per node: the deadlock of ranks 0 and 1 as on one node, a clean run clean, every rank observed"
    ;;
srun-late-fence)
    # Open MPI under srun (Slurm's mpi/pmix), 4 ranks cyclic: rank 2, alone on node 3, is told of
    # the end of MPI_Init's modex fence 500 ms late (late_fence.c, preloaded after mpiguard's
    # library), as when its node learns the end of Slurm's ring last. With Slurm's default barrier
    # fence, which ended on each node by itself, ranks 0, 1 and 3 left MPI_Init and rank 3's first
    # allreduce message reached rank 2 before Open MPI had set up its receive callbacks: a SIGSEGV
    # at address 0 (issue 31). mpiguard asks for the ring fence, which waits for every node. A
    # user's own SLURM_PMIX_FENCE is kept.
    mn_slurm_up
    job=($(LAUNCH_VIA=srun launcher_for "$flavor") -N 3 -n 4 --distribution=cyclic --kill-on-bad-exit=1
        "$PROGS/mn_hello")
    check=(mn_on 0 "$MPIGUARD" check -v --mpi "$flavor" --agent-launcher "srun -N 3 --ntasks-per-node=1")
    LD_PRELOAD=${LATE_FENCE:?} expect_status_within 60 0 "srun job with a late fence release" \
        "$PROGS/mn_hello" -- "${check[@]}" -- "${job[@]}"
    expect_stderr "SLURM_PMIX_FENCE=ring"
    expect_stderr "nothing found in 4 of 4 ranks observed"
    for r in 0 1 2 3; do
        grep -qx "rank $r of 4 on ${MN_ID}n$((r % 3 + 1)): sum 6" "$TMP/stdout" ||
            { cat "$TMP/stdout" "$TMP/stderr" >&2; fail "rank $r said nothing or a wrong sum"; }
    done
    # The user's own fence, on one node (no other node's news to wait for).
    on_one=(-N 1 -n 1 -w "${MN_ID}n1")
    SLURM_PMIX_FENCE=tree expect_status_within 60 0 "srun job with the user's fence" \
        "$PROGS/mn_hello" -- mn_on 0 "$MPIGUARD" check -v --mpi "$flavor" \
        --agent-launcher "srun ${on_one[*]}" -- $(LAUNCH_VIA=srun launcher_for "$flavor") \
        "${on_one[@]}" "$PROGS/mn_hello"
    grep -qx "rank 0 of 1 on ${MN_ID}n1: sum 0" "$TMP/stdout" || { cat "$TMP/stderr" >&2; fail "no rank said its sum"; }
    ! grep -q "SLURM_PMIX_FENCE=ring" "$TMP/stderr" || fail "the user's SLURM_PMIX_FENCE was replaced"
    pass "srun job ($flavor), rank 2 told late of MPI_Init's fence: every rank ran its allreduce; a user's own fence kept"
    ;;
check-unclaimed-leaves | check-unclaimed-early | check-hidden-rank-leaves)
    # A rank no leaf claims, never taken as checked: exit 83, the rank named not observed in the
    # report, never a clean line, and the job stopped long before its end. Unclaimed: the agent
    # launcher starts agents on nodes 1 and 2 only (-n 2: one node short of the job's three); once
    # both leaves named their ranks, mpiguard names rank 2 (node 3), within 1-2 s: the other ranks
    # may not have reached MPI_Init by then. Early: they wait 60 s before it, so the stop always
    # ends them before it, and their agents' verdicts say so (stopped_before_init), not a cause
    # of their own. Hidden: rank 1 (node 2) starts without mpiguard's environment (a site's
    # wrapper dropped it), its node's agent never finds it and node 2's leaf never says its share;
    # once the job's size and every agent have been known for RANK_OBSERVE_ANNOUNCED_S (the other
    # agents' counts of their nodes' ranks leave it to come) and still no agent named it, mpiguard
    # names it.
    app="$BUILD/examples/$flavor/cg"
    if [ "$case" != check-hidden-rank-leaves ]; then
        agents=2 wrap=() seconds=120 missing=2 cause=agent_lost
        said="rank 2 .* is not observed: no leaf of the tree of detectors streams it"
        [ "$case" = check-unclaimed-leaves ] || app="$PROGS/mn_hello"
    else
        cat >"$TMP/hide.sh" <<'SH'
#!/bin/sh
[ "${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-}}" = 1 ] && unset MPIGUARD_JOB_TOKEN MPIGUARD_JOB_TREE
exec "$@"
SH
        chmod +x "$TMP/hide.sh"
        agents=3 wrap=("$TMP/hide.sh") seconds=120 missing=1 cause=not_found
        said="rank 1 .* is not observed: no agent found it in the [0-9]* s since the job's size was known"
    fi
    args=(--seconds $seconds)
    [ "$case" != check-unclaimed-early ] || args=(60)
    expect_status_within 150 83 "3-node check, rank $missing unclaimed" "$app" -- mn_on 0 \
        "$MPIGUARD" check --mpi "$flavor" --agent-launcher "$launcher -n $agents" \
        --detector-leaves $agents --report "$TMP/r.json" -- $launcher -n 3 "${wrap[@]}" "$app" \
        "${args[@]}"
    expect_stderr "$said"
    grep -q "nothing found" "$TMP/stderr" && fail "a clean line for a rank no leaf streams"
    python3 - "$TMP/r.json" $missing $cause $case <<'PY' || { cat "$TMP/stderr" >&2; fail "report"; }
import json, sys
r = json.load(open(sys.argv[1]))
obs = {o["rank"]: (o["observed"], o["cause"]) for o in r["observation"]}
missing, case = int(sys.argv[2]), sys.argv[4]
assert obs.pop(missing) == (False, sys.argv[3]), (missing, obs)
early = [(False, "stopped_before_init")]
allowed = {"check-unclaimed-early": early, "check-unclaimed-leaves": [(True, "observed")] + early,
           "check-hidden-rank-leaves": [(True, "observed")]}[case]
assert sorted(obs) == [k for k in range(3) if k != missing], obs
assert all(v in allowed for v in obs.values()), obs
assert r["job"]["outcome"] == "stopped", r["job"]
PY
    pass "3-node check ($flavor), $case: rank $missing named not observed ($cause), exit 83"
    ;;
check-late-agent | check-missing-agent)
    # Without leaves the root takes any number of agents; each agent's HELLO says how many ranks
    # its launcher put on its node. Late: node 2's agent starts 25 s after the others (its ranks
    # did not: rank 1 is already in the deadlock of mn_deadlock, which only its records show).
    # The root, which has the other agents' counts (1 + 1 of the job's 3), waits for the rank to
    # come, saying so, instead of judging it not_found at RANK_OBSERVE_UNFOUND_S: the deadlock is
    # found, every rank observed. Missing: no agent on node 3 at all (-n 2) under a healthy job: the
    # wait is bounded (RANK_OBSERVE_ANNOUNCED_S), then rank 2 is named not_found and the job stopped,
    # exit 83.
    if [ "$case" = check-late-agent ]; then
        printf '#!/bin/sh\ncase $(hostname) in *n2) sleep 25 ;; esac\nexec "$@"\n' >"$TMP/late.sh"
        chmod +x "$TMP/late.sh"
        agents="$launcher -n 3 $TMP/late.sh" want=82 limit=90 job=("$PROGS/mn_deadlock")
    else
        agents="$launcher -n 2" want=83 limit=150 job=("$BUILD/examples/$flavor/cg" --seconds 120)
    fi
    expect_status_within $limit $want "3-node check, $case" "${job[0]}" -- mn_on 0 "$MPIGUARD" \
        check -v --agent-launcher "$agents" --report "$TMP/r.json" -- $launcher -n 3 "${job[@]}"
    expect_stderr "the agents' counts of their nodes' ranks leave 1 rank to come"
    python3 - "$TMP/r.json" $case <<'PY' || { cat "$TMP/stderr" >&2; fail "report"; }
import json, sys
r = json.load(open(sys.argv[1]))
obs = {o["rank"]: (o["observed"], o["cause"]) for o in r["observation"]}
kinds = [f["kind"] for f in r["findings"]]
if sys.argv[2] == "check-late-agent":
    assert obs == {k: (True, "observed") for k in range(3)}, obs
    assert kinds == ["deadlock"] and {0, 1} <= set(r["findings"][0]["ranks"]), r["findings"]
else:
    assert obs[2] == (False, "not_found") and obs[0][0] and obs[1][0], obs
    assert kinds == [] and r["job"]["outcome"] == "stopped", (kinds, r["job"])
PY
    pass "3-node check ($flavor), $case: the root waited for the rank its agents' counts left, exit $want"
    ;;
check-plain)
    # check without --agent-launcher on a job whose ranks run on other nodes: each rank named with
    # that cause and the option that reads them, the job stopped, exit 83; never a clean line.
    app="$BUILD/examples/$flavor/cg"
    expect_status_within 90 83 "3-node check without agents" "$app" -- mn_on 0 "$MPIGUARD" check \
        --report "$TMP/r.json" -- $launcher -n 3 "$app" --seconds 60
    expect_stderr "is not observed: it runs on another node .* --agent-launcher"
    grep -q "nothing found" "$TMP/stderr" && fail "a clean line for ranks it could not see"
    python3 - "$TMP/r.json" <<'PY' || { cat "$TMP/stderr" >&2; fail "report"; }
import json, sys
obs = {o["rank"]: (o["observed"], o["cause"]) for o in json.load(open(sys.argv[1]))["observation"]}
assert (False, "other_node") in obs.values() and not any(o for o, _ in obs.values()), obs
PY
    pass "3-node check ($flavor) without agents: ranks named on another node, exit 83"
    ;;
check-blind)
    # Rank 1, on node 2, loses LD_PRELOAD in a wrapper script: its node's agent names it with that
    # cause as a one-node check would, and check stops the job with 83. The stop comes once rank
    # 1's /proc settled (RANK_OBSERVE_SETTLE_S), whether or not ranks 0 and 2 are out of MPI_Init,
    # which across the nodes waits for all three: a slow one (a rank started 4 s late here: rank 2
    # was so) leaves them stopped_before_init, as docs/check.md says, never a cause of their own.
    app="$BUILD/examples/$flavor/cg"
    expect_status_within 120 83 "3-node check of a blind rank" "$app" -- mn_on 0 "$MPIGUARD" check \
        --agent-launcher "$launcher -n 3" --report "$TMP/r.json" -- $launcher -n 3 \
        "$(realpath "$(dirname "$0")/../integration/observe/blind_rank.sh")" "$app" --seconds 60
    expect_stderr "rank 1 (pid [0-9]* on ${MN_ID}n2) is not observed: not interposed: its LD_PRELOAD (unset)"
    python3 - "$TMP/r.json" <<'PY' || { cat "$TMP/stderr" >&2; fail "report"; }
import json, sys
obs = {o["rank"]: (o["observed"], o["cause"]) for o in json.load(open(sys.argv[1]))["observation"]}
allowed = [(True, "observed"), (False, "stopped_before_init")]
assert obs[1] == (False, "preload_replaced") and obs[0] in allowed and obs[2] in allowed, obs
PY
    pass "3-node check ($flavor): rank 1 on node 2 not interposed, named by its node's agent, exit 83"
    ;;
hang-agent-killed | hang-agent-killed-relays)
    # A long job under hang; once the agents joined, node 2's agent is killed (Hydra then ends
    # the agents' whole job, so the other nodes' agents go too). No rank is read from then on:
    # mpiguard says so and stops the job within seconds, rank 1 named not observed, never exit 0.
    # It used to watch nothing until the job's end, if ever: a 25 s cg under MPICH hung past it
    # in 1 of 10 runs here, and mpiguard waited on for good. With relays (--agent-fanout 2), a
    # relay loses the agent and tells mpiguard so in its answers.
    app="$BUILD/examples/$flavor/cg"
    relays=()
    [ "$case" = hang-agent-killed-relays ] && relays=(--agent-fanout 2)
    mn_on 0 "$MPIGUARD" hang -v --seed 4 --agent-launcher "$launcher -n 3" "${relays[@]}" \
        --report "$TMP/r.json" -- $launcher -n 3 "$app" --seconds 300 >"$TMP/stdout" 2>"$TMP/stderr" &
    guard=$!
    for _ in $(seq 600); do grep -q "agents own" "$TMP/stderr" && break; sleep 0.1; done
    sleep 3
    agent=$(for pid in $(ip netns pids "${MN_ID}n2"); do
        tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "agent hang --connect" && echo "$pid"
    done)
    [ -n "$agent" ] || { kill $guard; cat "$TMP/stderr" >&2; fail "no hang agent on node 2"; }
    kill -KILL $agent
    wait_ended $guard 60 || { kill $guard; cat "$TMP/stderr" >&2; fail "mpiguard still running 60 s on"; }
    wait $guard
    got=$?
    [ $got -eq 83 ] || { cat "$TMP/stderr" >&2; fail "exit status $got, expected 83"; }
    expect_stderr "no rank is observed any more: every agent stopped answering; stopping the job"
    expect_stderr "rank 1 is not observed: its node's agent stopped answering"
    expect_stderr "no hang found in 0 of 3 ranks observed"
    [ "$case" = hang-agent-killed ] || expect_stderr "the front reads them through 2 relays of up to 2 agents"
    pass "3-node hang ($flavor${relays[*]:+, through relays}), node 2's agent killed: every agent gone, the job stopped within 60 s, rank 1 named not observed, exit 83"
    ;;
check-agent-killed|check-linkdown|check-wrong-secret|check-no-secret|check-agent-killed-leaves|check-leaf-killed)
    # A long job under check across the nodes; once rank 1 is observed on node 2, either its
    # node's agent is killed, or node 2's link goes down (no reset ever comes: its agent falls
    # silent), and the job stops, rank 1 named lost, exit 83; or a stranger on node 2 offers the
    # detector a wrong secret, or none at all (refused; the run goes on to its clean end). With a leaf beside each
    # node's agent (--detector-leaves 3), node 2's agent or its leaf (the agent's child) killed:
    # rank 1 named lost with its leaf, never taken for a rank that ended.
    job=("$BUILD/examples/$flavor/cg" --seconds 300)
    # MPICH 4.0.2's UCX netmod, in MPI_Finalize, flushes and closes every endpoint, then waits in a
    # PMI barrier without network progress: a rank whose flush needs a peer already in that barrier
    # waits for good (pmodels/mpich#6596 removed the barrier). cg's last MPI_Reduce leaves its root
    # behind the others: its plain MPICH run hung so in 4 of 12 runs here (rank 0 in the flush,
    # ranks 1-2 in the barrier). mn_hello's ranks wait alike after their allreduce and enter
    # MPI_Finalize together, nothing in flight: 0 of 15.
    foreign=0
    [ "$case" != check-wrong-secret ] && [ "$case" != check-no-secret ] || foreign=1
    [ $foreign = 0 ] || job=("$PROGS/mn_hello" 0 12)
    leaves=()
    [ "$case" != check-agent-killed-leaves ] && [ "$case" != check-leaf-killed ] || leaves=(--detector-leaves 3)
    mn_on 0 "$MPIGUARD" check -v --agent-launcher "$launcher -n 3" "${leaves[@]}" --report "$TMP/r.json" \
        -- $launcher -n 3 "${job[@]}" >"$TMP/stdout" 2>"$TMP/stderr" &
    guard=$!
    for _ in $(seq 900); do grep -q "rank 1 is observed on ${MN_ID}n2" "$TMP/stderr" && break; sleep 0.1; done
    grep -q "rank 1 is observed on ${MN_ID}n2" "$TMP/stderr" || { kill $guard; cat "$TMP/stderr" >&2; fail "rank 1 never observed"; }
    if [ "$case" != check-linkdown ] && [ $foreign = 0 ]; then
        # the leaf is the agent's child, forked: the same command line
        agents=$(for pid in $(ip netns pids "${MN_ID}n2"); do
            tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "agent check --connect" && echo "$pid"
        done)
        for pid in $agents; do
            parent=$(awk '{print $4}' "/proc/$pid/stat" 2>/dev/null)
            if grep -qw "$parent" <<<"$agents"; then leaf=$pid; else agent=$pid; fi
        done
        [ "$case" = check-leaf-killed ] && agent=${leaf:-}
        [ -n "${agent:-}" ] || { kill $guard; fail "no check agent (or leaf) on node 2"; }
        kill -KILL $agent
        want=83
    elif [ "$case" = check-linkdown ]; then
        ip -n "${MN_ID}n2" link set eth0 down
        want=83
    elif [ "$case" = check-no-secret ]; then
        # mpiguard's own agent will not start without a secret; a stranger that sends an agent's
        # HELLO with none before it (12 bytes of header, 80 of payload) is refused on its first
        # bytes: the front closes the connection, and nothing of the frame is taken (the HELLO
        # would have the stream join as node "no-secret", its next frame, announcing 2 GB, would
        # close it as malformed).
        address=$(sed -n 's/.*check: the agents stream to //p' "$TMP/stderr")
        env -u MPIGUARD_AGENT_SECRET "$MPIGUARD" agent check --connect "$address" --token stranger \
            --library /nonexistent --mpi "$flavor" 2>"$TMP/stranger"
        stranger=$?
        [ $stranger -eq 64 ] && grep -q "MPIGUARD_AGENT_SECRET is missing" "$TMP/stranger" ||
            { kill $guard; cat "$TMP/stranger" >&2; fail "an agent without a secret ended $stranger"; }
        mn_on 2 python3 - "$address" <<'PY' || { kill $guard; fail "the stranger without a secret was not refused"; }
import socket, struct, sys, time
host, port = sys.argv[1].rsplit(":", 1)
def frame(kind, payload, length=None):
    n = len(payload) if length is None else length
    return struct.pack("<IHBBI", 0x4741474D, 17, kind, 0, n) + payload
hello = struct.pack("<III64sI", 2, 0, 1, b"no-secret", 1)  # tool check, share 0 of 1
s = socket.create_connection((host, int(port)), timeout=10)
s.sendall(frame(1, hello) + frame(3, b"", 2 << 30))
began = time.monotonic()
assert s.recv(1) == b"", "the front answered a stranger"
print("refused after %.2f s" % (time.monotonic() - began))
PY
        want=0
    else
        # The run's secret reaches the agents in their environment only: no command line on this
        # machine (the launchers', the agents', the ranks') holds it.
        secret=$(for pid in $(ip netns pids "${MN_ID}n2"); do
            tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "agent check --connect" &&
                tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | sed -n 's/^MPIGUARD_AGENT_SECRET=//p'
        done | head -1)
        [[ $secret =~ ^[0-9a-f]{64}$ ]] || { kill $guard; fail "no secret in node 2's agent's environment"; }
        ! grep -qaF "$secret" /proc/[0-9]*/cmdline 2>/dev/null || { kill $guard; fail "the agent secret is on a command line"; }
        address=$(sed -n 's/.*check: the agents stream to //p' "$TMP/stderr")
        MPIGUARD_AGENT_SECRET=$(printf '%064d' 7) mn_on 2 "$MPIGUARD" agent check \
            --connect "$address" --token stranger --library /nonexistent --mpi "$flavor" \
            2>"$TMP/stranger"
        stranger=$?
        [ $stranger -eq 70 ] || { kill $guard; cat "$TMP/stranger" >&2; fail "the stranger ended $stranger, expected 70"; }
        want=0
    fi
    wait_ended $guard 120 || { kill $guard; cat "$TMP/stderr" >&2; fail "mpiguard still running 120 s on"; }
    wait $guard
    got=$?
    [ $got -eq $want ] || { cat "$TMP/stderr" >&2; fail "exit status $got, expected $want"; }
    if [ $foreign = 0 ]; then
        [ "$case" != check-linkdown ] ||
            expect_stderr "the agent on node ${MN_ID}n2 sent nothing for 15 s: its node or its link is down"
        if [ ${#leaves[@]} -eq 0 ]; then
            expect_stderr "rank 1 (pid [0-9]* on ${MN_ID}n2) is not observed: the agent on node ${MN_ID}n2 was lost"
        else
            expect_stderr "rank 1 (pid [0-9]* on ${MN_ID}n2) is not observed: leaf 1 of the tree of detectors (ranks 1-1) was lost while the rank ran"
        fi
        python3 - "$TMP/r.json" <<'PY' || { cat "$TMP/stderr" >&2; fail "report"; }
import json, sys
r = json.load(open(sys.argv[1]))
obs = {o["rank"]: o for o in r["observation"]}
assert not obs[1]["observed"] and obs[1]["cause"] == "agent_lost", obs
assert r["job"]["outcome"] == "stopped", r["job"]
PY
        pass "3-node check ($flavor), $case on node 2: the job stopped, rank 1 named lost, exit 83"
    else
        expect_stderr "a connection from [0-9.:]* without this run's agent secret was refused"
        ! grep -q "no-secret\|closing an agent's stream" "$TMP/stderr" ||
            { cat "$TMP/stderr" >&2; fail "a frame of the stranger was read"; }
        expect_stderr "nothing found in 3 of 3 ranks observed"
        for r in 0 1 2; do
            grep -qx "rank $r of 3 on ${MN_ID}n$((r + 1)): sum 3" "$TMP/stdout" ||
                { cat "$TMP/stdout" "$TMP/stderr" >&2; fail "rank $r said no sum"; }
        done
        pass "3-node check ($flavor): ${case#check-} from node 2 refused, the run clean to its end"
    fi
    ;;
*) fail "unknown case $case" ;;
esac
