#!/bin/bash
# check's potential deadlocks on hpcc (docs/apps.md: a standard MPI_Send, tag 102, to a rank that is
# in an MPI_Bcast) are real, not a false alarm: MPI allows a standard send to wait for its receive
# and a broadcast to wait for every member. tests/apps/unbuffered_mpi.c, preloaded, takes each
# liberty on its own switch. With either one alone hpcc's short input runs to its end; with both it
# hangs exactly there, and `mpiguard hang` (the user's `-x LD_PRELOAD` merged with its own) names it:
# one rank in MPI_Send to the next with tag 102, every other in MPI_Bcast.
# Usage: app_unbuffered.sh NRANKS
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/apps.sh"
np=$1
launcher=$(launcher_for openmpi)
lib="$BUILD/tests/apps/libunbuffered_mpi.so"
report="$TMP/report.json"
for liberty in MG_UNBUFFERED_SENDS MG_SYNCHRONIZING_BCAST; do
    app_prepare hpcc short "$TMP/$liberty" || fail "inputs of hpcc"
    (cd "$TMP/$liberty" && expect_status_within 300 0 "hpcc with $liberty alone" libunbuffered_mpi -- \
        $launcher -n "$np" -x LD_PRELOAD="$lib" -x "$liberty=1" $(app_command hpcc short)) || exit 1
    app_result hpcc "$TMP/$liberty" "$TMP/stdout" >/dev/null || fail "hpcc with $liberty alone did not run to its end"
done
app_prepare hpcc short "$TMP/both" || fail "inputs of hpcc"
(cd "$TMP/both" && expect_status_within 300 81 "hpcc with both under hang" libunbuffered_mpi -- "$MPIGUARD" hang -q \
    --report "$report" -- $launcher -n "$np" -x LD_PRELOAD="$lib" -x MG_UNBUFFERED_SENDS=1 \
    -x MG_SYNCHRONIZING_BCAST=1 $(app_command hpcc short)) || exit 1
python3 - "$report" "$np" <<'PY' || fail "report content"
import json, sys
r = json.load(open(sys.argv[1])); np = int(sys.argv[2])
assert [f["kind"] for f in r["findings"]] == ["hang"], r["findings"]
ev = r["findings"][0]["evidence"]
assert ev["hang_type"] == "communication", ev["hang_type"]
calls = {e["rank"]: e["function"] for e in ev["per_rank"]}
senders = [k for k, fn in calls.items() if fn == "MPI_Send"]
assert len(senders) == 1 and all(fn == "MPI_Bcast" for k, fn in calls.items() if k != senders[0]), calls
send = next(e for e in ev["per_rank"] if e["rank"] == senders[0])["waits_for"]["call"]
assert send["peer"] == (senders[0] + 1) % np and send["tag"] == 102, send
print("rank %d waits in MPI_Send (tag 102) to rank %d; the others in MPI_Bcast" % (senders[0], send["peer"]))
PY
pass "hpcc hangs where check warned, with both liberties MPI allows, and runs with either alone"
