#!/bin/bash
# `mpiguard collectives` under its limits keeps what it found and says why it stopped. A test that
# would not fit in --memory-limit is skipped, never run (Reduce_scatter of MPI_INT at 2 ranks: the
# points below the limit pass, the next is skipped); a --time-limit that runs out ends the search
# of the collective in progress with the points found so far and skips the next collective at
# n = 1. Both leave a file and a table that say so, and exit 0. A failed test's output (here the
# launcher's refusal of an unknown option) is kept in FILE.logs and named on its progress line, not
# printed; a run without a failure leaves no such directory.
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

expect_status 0 "a failing launcher" -- "$MPIGUARD" collectives --collectives Bcast --np 2 \
    --max-count 1 -o "$TMP/f.json" -- $launcher --no-such-option
log="$TMP/f.json.logs/001-Bcast-s1-P2-n1.log"
expect_stderr "Bcast s=1 P=2 n=1: crash ([0-9.]* s; its output: $log)"
[ -s "$log" ] && [ -s "${log/001/002}" ] || fail "the failed tests' output was not kept"
grep -q "no-such-option" "$log" || fail "the kept output is not the launcher's: $(cat "$log")"
grep -q "no-such-option" "$TMP/stdout" "$TMP/stderr" && fail "the launcher's output was printed"
expect_status 0 "the same without the failure" -- "$MPIGUARD" collectives --collectives Bcast \
    --np 2 --max-count 1 -o "$TMP/f.json" -- $launcher
[ -e "$TMP/f.json.logs" ] && fail "a run without a failure left $TMP/f.json.logs"
pass "$flavor: a failed test's output is kept in FILE.logs and named; none is printed"

# Exit 1 is wrong bytes only with the tester's own line saying so (above, the launcher's exit 1 was
# a crash): here a stand-in for the tester says it, through the same launcher.
says_wrong='echo "coll_tester: Bcast s 1 n 1 P 2: WRONG bytes after 0.001 s" >&2; exit 1'
expect_status 0 "wrong bytes" -- "$MPIGUARD" collectives --collectives Bcast --np 2 \
    --max-count 1 -o "$TMP/w.json" -- $launcher -n 1 sh -c "$says_wrong"
expect_stderr "Bcast s=1 P=2 n=1: wrong bytes ([0-9.]* s; its output: $TMP/w.json.logs/001-"
pass "$flavor: exit 1 with the tester's line is wrong bytes"
