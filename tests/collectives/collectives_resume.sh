#!/bin/bash
# `mpiguard collectives --resume` goes on from the safe-bounds file it writes: an unbounded point
# is tested on from twice its n, never from n = 1 again; a bounded point is kept untested; the
# file's points that this run does not test stay in it. A file measured on another version of the
# MPI, a missing one and a malformed one are refused before any test, and left as they were. A run
# stopped by SIGINT keeps what it found and can be resumed.
# Usage: collectives_resume.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
launcher=$(launcher_for "$flavor")
out="$TMP/bounds.json"

expect_status 0 "the first part" -- "$MPIGUARD" collectives --collectives Bcast,Gather --np 2 \
    --max-count 64 -o "$out" -- $launcher
# As an earlier run that found Gather failing past 40 and tested Alltoall at P = 4 would leave it.
python3 - "$out" <<'PY' || fail "cannot edit $out"
import json, sys
d = json.load(open(sys.argv[1]))
(gather,) = [e for e in d["entries"] if e["collective"] == "Gather"]
gather.update({"safe_count": 40, "status": "bounded", "class": "G", "form": "nP"})
d["entries"].append({"collective": "Alltoall", "type_size": 1, "np": 4, "safe_count": 32,
                     "class": "none", "form": None, "status": "unbounded"})
json.dump(d, open(sys.argv[1], "w"))
PY
expect_status 0 "the second part" -- "$MPIGUARD" collectives --resume --collectives Bcast,Gather \
    --np 2 --max-count 256 -o "$out" -- $launcher
tested=$(grep -o "Bcast s=1 P=2 n=[0-9]*" "$TMP/stderr" | tr '\n' ' ')
[ "$tested" = "Bcast s=1 P=2 n=128 Bcast s=1 P=2 n=256 " ] ||
    fail "Bcast should go on from 2 x 64 to 256; tested: $tested"
expect_stderr "Gather s=1 P=2: bounded at n = 40 by an earlier run; not tested again"
grep -q "Gather s=1 P=2 n=" "$TMP/stderr" && fail "the bounded Gather was tested again"
grep -Eq '^Gather +1 +2 +bounded +40 +- .* \(an earlier run\)' "$TMP/stdout" ||
    fail "the table does not show Gather's earlier bound: $(cat "$TMP/stdout")"
python3 - "$out" <<'PY' || fail "the resumed file: $(cat "$out")"
import json, sys
bcast, gather, alltoall = json.load(open(sys.argv[1]))["entries"]
assert (bcast["collective"], bcast["status"], bcast["safe_count"]) == ("Bcast", "unbounded", 256), bcast
assert (gather["status"], gather["safe_count"], gather["class"], gather["form"]) == ("bounded", 40, "G", "nP"), gather
assert (alltoall["collective"], alltoall["np"], alltoall["safe_count"]) == ("Alltoall", 4, 32), alltoall
PY
pass "$flavor: --resume goes on from 2 x 64, keeps the bound found earlier and the other points"

# A run stopped by SIGINT mid-test: exit 130, what was found kept, the test the signal ended
# neither a failure nor kept as one, none of its processes left (the launcher's helpers, such as
# hydra_pmi_proxy, and the tester's ranks: marked by a variable they inherit); --resume goes on
# from it.
mark="MG_TEST_RUN=$TMP"
env "$mark" "$MPIGUARD" collectives --collectives Bcast --np 2 --max-count 1073741824 \
    -o "$TMP/int.json" -- $launcher >"$TMP/stdout" 2>"$TMP/stderr" &
job=$!
for _ in $(seq 600); do grep -q "n=1048576: pass" "$TMP/stderr" && break; sleep 0.1; done
kill -INT $job
wait_ended $job 60 || fail "mpiguard collectives did not end on SIGINT"
wait $job
got=$?
[ $got -eq 130 ] || fail "SIGINT: exit status $got, expected 130"
marked() { grep -l -z -x -F -- "$mark" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3; }
# a process killed a moment ago may still be reaped by its parent
for _ in $(seq 50); do [ -z "$(marked)" ] && break; sleep 0.1; done
left=$(marked)
if [ -n "$left" ]; then
    ps -o pid=,args= -p "$(echo $left | tr ' ' ,)" >&2
    kill -KILL $left 2>/dev/null
    fail "SIGINT left processes of the run behind: $(echo $left)"
fi
grep -Eq "crash|wrong bytes|hang" "$TMP/stderr" && fail "the interrupted test was taken for a failure: $(cat "$TMP/stderr")"
[ -e "$TMP/int.json.logs" ] && fail "an interrupted run left $TMP/int.json.logs"
expect_stderr "Bcast s=1 P=2: unbounded, n = [0-9]* ([0-9]* tests; next n skipped (time budget))"
found=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['entries'][0]['safe_count'])" "$TMP/int.json")
[ "$found" -ge 1048576 ] || fail "the interrupted run kept n = $found"
expect_status 0 "resumed after SIGINT" -- "$MPIGUARD" collectives --resume --collectives Bcast \
    --np 2 --max-count $((found * 2)) -o "$TMP/int.json" -- $launcher
tested=$(grep -o "Bcast s=1 P=2 n=[0-9]*" "$TMP/stderr" | tr '\n' ' ')
[ "$tested" = "Bcast s=1 P=2 n=$((found * 2)) " ] || fail "after SIGINT, resumed: $tested"
pass "$flavor: a run stopped by SIGINT keeps its points, calls nothing a failure, leaves no \
process, and goes on"

sed 's/"version":"[^"]*"/"version":"0.0.1"/' "$out" >"$TMP/other.json"
cp "$TMP/other.json" "$TMP/other.before"
expect_status 65 "another version" -- "$MPIGUARD" collectives --resume --collectives Bcast \
    --np 2 -o "$TMP/other.json" -- $launcher
expect_stderr "other.json was measured on $flavor 0.0.1, but the installed $flavor is "
cmp -s "$TMP/other.json" "$TMP/other.before" || fail "the refused file was changed"
grep -q "n=1:" "$TMP/stderr" && fail "a test ran before the file was refused"
expect_status 66 "a missing file" -- "$MPIGUARD" collectives --resume -o "$TMP/none.json" \
    -- $launcher
expect_stderr "none.json"
[ -e "$TMP/none.json" ] && fail "a missing file to resume was created"
echo '{"schema": "mpiguard-bounds/1", "entries": 3' >"$TMP/bad.json"
expect_status 65 "a malformed file" -- "$MPIGUARD" collectives --resume -o "$TMP/bad.json" \
    -- $launcher
expect_stderr "bad.json"
pass "$flavor: --resume refuses a file of another version, a missing and a malformed one"
