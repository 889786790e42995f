#!/bin/bash
# The cost model is measured, not assumed: `mpiguard collectives` measures it at each P after its
# searches (src/tester/coll_costs.c) and keeps it in the safe-bounds file; `mpiguard protect
# --bounds` chooses workarounds by it. With the file's costs edited so that a datatype and a
# communicator cost a thousand seconds, Gather's trigger is served by W1-B; with calls that cost a
# second each and free datatypes, by W2 (one call against W1-B's rounds); the bytes are right
# either way. --resume keeps the costs measured earlier; --no-costs measures none; a measurement
# that fails is a warning with its output kept; a malformed costs entry is refused (65) by
# protect, naming it.
# Usage: collectives_costs.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
launcher=$(launcher_for "$flavor")
out="$TMP/bounds.json"

expect_status 0 "collectives" -- "$MPIGUARD" collectives --collectives Gather --np 2 \
    --max-count 64 -o "$out" -- $launcher
expect_stderr "cost model at P=2: call [0-9.]* us, [0-9.]* ns per byte moved, [0-9.]* ns per byte copied, datatype [0-9.]* us, communicator [0-9.]* us"
grep -q "^cost model at each P" "$TMP/stdout" || fail "the table lacks the cost model: $(cat "$TMP/stdout")"
python3 - "$out" <<'PY' || fail "the costs in $out: $(cat "$out")"
import json, math, sys
(c,) = json.load(open(sys.argv[1]))["costs"]
assert c["np"] == 2, c
# Orders of magnitude any MPI on one machine has: a collective call 0.1-10^5 us, a datatype and a
# communicator 10 ns-1 s, a byte moved or copied 1 ps-100 ns.
assert 100 <= c["call_ns"] <= 1e8 and 10 <= c["type_ns"] <= 1e9 and 10 <= c["comm_ns"] <= 1e9, c
assert 0.001 <= c["byte_ns"] <= 100 and 0.001 <= c["copy_byte_ns"] <= 100, c
assert isinstance(c["allgather_block_stride"], bool), c
PY
pass "$flavor: collectives measures the cost model at P = 2 and keeps it in the file"

# protect_with COSTS_JSON: coll_check at 2 ranks under an artificial bound on every call (on
# MPICH the large-count ones too, so that W3, which no cost can make dearer than one call, is not
# sound), the file's costs replaced; prints the workaround that served MPI_Gather.
bound_calls=()
[ "$flavor" = mpich ] && bound_calls=(--bound-calls all)
protect_with() {
    python3 - "$out" "$TMP/edited.json" "$1" <<'PY' || fail "cannot edit $out"
import json, sys
d = json.load(open(sys.argv[1]))
d["costs"][0].update(json.loads(sys.argv[3]))
json.dump(d, open(sys.argv[2], "w"))
PY
    expect_status 0 "protect with $1" -- "$MPIGUARD" protect --bounds "$TMP/edited.json" \
        --bound 20 "${bound_calls[@]}" --report "$TMP/r.json" \
        -- $launcher -n 2 "$BUILD/tests/collectives/$flavor/coll_check" 16 1
    grep -q "^coll_check: 46 cases on 2 ranks, n 16, root 1: 0 mismatching$" "$TMP/stdout" ||
        { cat "$TMP/stdout" "$TMP/stderr" >&2; fail "results differ from the unprotected collectives"; }
    python3 - "$TMP/r.json" <<'PY' || fail "report: $(cat "$TMP/r.json")"
import json, sys
r = json.load(open(sys.argv[1]))
(w,) = {x["evidence"]["workaround"] for x in r["findings"]
        if x["kind"] == "workaround" and x["evidence"]["collective"] == "MPI_Gather"}
print(w)
PY
}
got=$(protect_with '{"type_ns": 1e12, "comm_ns": 1e12}')
[ "$got" = W1-B ] || fail "dear datatypes and communicators: Gather served by $got, expected W1-B"
got=$(protect_with '{"call_ns": 1e9, "type_ns": 0, "comm_ns": 1e12}')
[ "$got" = W2 ] || fail "dear calls, free datatypes: Gather served by $got, expected W2"
pass "$flavor: protect chooses by the file's costs (W1-B when datatypes are dear, W2 when calls are)"

expect_status 0 "resume" -- "$MPIGUARD" collectives --resume --collectives Gather --np 2 \
    --max-count 128 -o "$out" -- $launcher
grep -q "cost model at P=2" "$TMP/stderr" && fail "--resume measured the costs again"
python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['costs'][0]['np'] == 2" "$out" ||
    fail "--resume lost the costs: $(cat "$out")"
expect_status 0 "no costs" -- "$MPIGUARD" collectives --no-costs --collectives Gather --np 2 \
    --max-count 4 -o "$TMP/none.json" -- $launcher
grep -q "cost model" "$TMP/stderr" "$TMP/stdout" && fail "--no-costs measured the costs"
grep -q '"costs"' "$TMP/none.json" && fail "--no-costs wrote costs: $(cat "$TMP/none.json")"
pass "$flavor: --resume keeps the costs measured, --no-costs measures none"

# A measurement that fails (here the launcher refuses an option, as it does every test's) is a
# warning with its output kept; the bounds found are kept, with no costs.
expect_status 0 "a failing measurement" -- "$MPIGUARD" collectives --collectives Bcast --np 2 \
    --max-count 1 -o "$TMP/f.json" -- $launcher --no-such-option
log="$TMP/f.json.logs/costs-P2.log"
expect_stderr "the cost measurement at P=2 failed (the job failed; its output: $log)"
grep -q "no-such-option" "$log" || fail "the kept output is not the launcher's: $(cat "$log")"
grep -q '"costs"' "$TMP/f.json" && fail "a failed measurement wrote costs: $(cat "$TMP/f.json")"
pass "$flavor: a failed measurement is a warning, its output kept, no costs written"

python3 - "$out" "$TMP/bad.json" <<'PY' || fail "cannot edit $out"
import json, sys
d = json.load(open(sys.argv[1]))
d["costs"][0]["call_ns"] = -5
json.dump(d, open(sys.argv[2], "w"))
PY
expect_status 65 "a negative cost" -- "$MPIGUARD" protect --bounds "$TMP/bad.json" \
    -- $launcher -n 2 "$BUILD/tests/collectives/$flavor/coll_check" 16 1
expect_stderr "bad.json: costs entry 0 is malformed"
pass "$flavor: a malformed costs entry is refused, named"
