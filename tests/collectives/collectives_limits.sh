#!/bin/bash
# `mpiguard collectives` under its limits keeps what it found and says why it stopped. A test that
# would not fit in --memory-limit is skipped, never run (Reduce_scatter of MPI_INT at 2 ranks: the
# points below the limit pass, the next is skipped); a --time-limit that runs out ends the search
# of the collective in progress with the points found so far and skips the next collective at
# n = 1. Both leave a file and a table that say so, and exit 0.
# Usage: collectives_limits.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
launcher=$(launcher_for "$flavor")

expect_status 0 "memory limit" -- "$MPIGUARD" collectives --collectives Reduce_scatter --np 2 \
    --max-count 1048576 --memory-limit 20K -o "$TMP/m.json" -- $launcher
grep -Eq '^Reduce_scatter +4 +2 +unbounded .* skipped \(memory\)' "$TMP/stdout" ||
    fail "the table does not say the search stopped at the memory limit: $(cat "$TMP/stdout")"
stopped="next n skipped (memory)"
expect_stderr "Reduce_scatter s=4 P=2: unbounded, n = [0-9]* ([0-9]* tests; $stopped)"
python3 - "$TMP/m.json" <<'PY' || fail "memory: bounds file content"
import json, sys
(e,) = json.load(open(sys.argv[1]))["entries"]
assert e["collective"] == "Reduce_scatter" and e["status"] == "unbounded", e
assert 1 <= e["safe_count"] < 1048576, e
PY
pass "$flavor: the memory limit skips the first test over it and keeps the points below"

expect_status 0 "time budget" -- "$MPIGUARD" collectives --collectives Bcast,Gather --np 2 \
    --time-limit 5 -o "$TMP/t.json" -- $launcher
expect_stderr "Gather s=1 P=2: skipped, n = 0 (1 test; n = 1: skipped (time budget))"
python3 - "$TMP/t.json" <<'PY' || fail "time budget: bounds file content"
import json, sys
bcast, gather = json.load(open(sys.argv[1]))["entries"]
assert bcast["collective"] == "Bcast" and bcast["status"] == "unbounded", bcast
assert 1 <= bcast["safe_count"] < 2147483647, bcast
assert gather["collective"] == "Gather" and gather["status"] == "skipped", gather
PY
pass "$flavor: the time budget keeps Bcast's points found by then and skips Gather"
