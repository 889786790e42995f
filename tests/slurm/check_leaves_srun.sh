#!/bin/bash
# `mpiguard check --detector-leaves` with its node's agent started through srun, for a job srun
# starts: srun tells its tasks no local size, only the step's layout (SLURM_STEP_TASKS_PER_NODE at
# SLURMD_NODENAME's place in SLURM_STEP_NODELIST), from which the node's agent waits for all of its
# node's ranks before its leaf starts (before that, a leaf started with the ranks found first and
# a later one stopped the run).
# The test cluster has one node: its leaf holds every rank, one of them started late. A deadlock is
# found as without leaves, its lines named; a clean job is clean; every rank observed in both.
# Usage: check_leaves_srun.sh FLAVOR (needs SLURM_CONF of a running cluster: the slurm fixture)
. "$(dirname "$0")/../lib.sh"
flavor=$1
: "${SLURM_CONF:?}"
progs="$BUILD/tests/multinode/$flavor"
launcher=$(launcher_for "$flavor")

# Rank 3 shows up 1 s after the others (as behind a slow wrapper): hidden from the agent until then
# (none of mpiguard's marks), so that the leaf must have waited for it, not started without it.
cat >"$TMP/late.sh" <<'SH'
#!/bin/sh
[ "$SLURM_PROCID" = 3 ] || exec "$@"
exec env -u MPIGUARD_JOB_TOKEN -u MPIGUARD_JOB_TREE LATE_TOKEN="$MPIGUARD_JOB_TOKEN" \
    LATE_TREE="$MPIGUARD_JOB_TREE" sh -c \
    'sleep 1; MPIGUARD_JOB_TOKEN=$LATE_TOKEN MPIGUARD_JOB_TREE=$LATE_TREE exec "$@"' late "$@"
SH
chmod +x "$TMP/late.sh"
expect_status_within 120 82 "srun check through a leaf" "$progs/mn_deadlock" -- "$MPIGUARD" check -v \
    --mpi "$flavor" --agent-launcher "srun -n 1" --detector-leaves 1 --report "$TMP/r.json" -- \
    $launcher -n 4 "$TMP/late.sh" "$progs/mn_deadlock"
expect_stderr "ERROR DEADLOCK"
expect_stderr "the stream from .* joined with its node's ranks (4, the first 0)"
python3 - "$TMP/r.json" <<'PY' || { cat "$TMP/stderr" >&2; fail "report of the deadlock"; }
import json, sys
r = json.load(open(sys.argv[1]))
assert r["tool_data"]["detector"] == {"leaves": 1, "levels": 2}, r["tool_data"]["detector"]
f = r["findings"][0]
assert f["kind"] == "deadlock" and {0, 1} <= set(f["ranks"]), f
lines = {s["rank"]: (s["function"], s["line"]) for s in f["sites"]}
assert lines[0] == lines[1] == ("MPI_Recv", 12), lines
obs = {o["rank"]: (o["observed"], o["sampler"]) for o in r["observation"]}
assert obs == {k: (True, "ring") for k in range(4)}, obs
PY
expect_status_within 120 0 "srun clean check through a leaf" "$progs/mn_hello" -- "$MPIGUARD" check \
    --agent-launcher "srun -n 1" --detector-leaves 1 --report "$TMP/r.json" -- \
    $launcher -n 4 "$progs/mn_hello"
expect_stderr "nothing found in 4 of 4 ranks observed"
python3 - "$TMP/r.json" <<'PY' || { cat "$TMP/stderr" >&2; fail "report of the clean run"; }
import json, sys
r = json.load(open(sys.argv[1]))
assert r["findings"] == [] and r["job"]["exit_status"] == 0, r["findings"]
obs = {o["rank"]: (o["observed"], o["cause"]) for o in r["observation"]}
assert obs == {k: (True, "observed") for k in range(4)}, obs
PY
pass "srun check ($flavor) through a leaf fed by an agent srun started: the deadlock of ranks 0 and 1 at line 12 (rank 3 started 1 s late), a clean run clean, every rank of 4 observed"
