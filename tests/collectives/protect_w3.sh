#!/bin/bash
# Workaround W3 (the MPI-4 large-count `_c` collectives) where the MPI has them, and only there.
# openmpi (4.1.4 has no `_c` collectives): `--workaround W3` is refused before anything runs, with
#   69 and the MPI named, by `mpiguard protect` and by `mpiguard run`; a safe-bounds file of schema
#   version 2 is read, and its `_c` entry bounds nothing but W3.
# mpich: a `_c` entry saying the large-count Gatherv failed keeps W3 off MPI_Gatherv (the forced W3
#   does not apply there, so the cost model chooses), while MPI_Igatherv (no entry for its `_c`
#   form) and the other collectives use it; every byte still matches.
# Usage: protect_w3.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
app="$BUILD/tests/collectives/$flavor/coll_check"
launcher=$(launcher_for "$flavor")
entry='{"collective": "Gatherv_c", "type_size": 4, "np": NP, "safe_count": 1, "class": "G", "form": "n", "status": "bounded"}'
if [ "$flavor" = openmpi ]; then
    for tool in protect run; do
        expect_status 69 "$tool --workaround W3" -- "$MPIGUARD" $tool --workaround W3 -- $launcher -n 2 "$app"
        expect_stderr "large-count collectives (MPI_Gatherv_c, ...), which openmpi 4.1.4 does not have"
        [ -s "$TMP/stdout" ] && fail "$tool --workaround W3: the job ran"
    done
    echo "{\"schema\": \"mpiguard-bounds/2\", \"mpi\": {\"flavor\": \"openmpi\", \"version\": \"4.1.4\"}, \"entries\": [${entry/NP/2}]}" >"$TMP/v2.json"
    expect_status 0 "a version 2 bounds file" -- "$MPIGUARD" protect --bounds "$TMP/v2.json" -- $launcher -n 2 "$app" 16 1
    grep -q "0 mismatching" "$TMP/stdout" || fail "results differ"
    grep -q "detector" "$TMP/stderr" && fail "a _c entry acted as a bound of the int form"
    pass "openmpi: W3 refused (69, the MPI named) by protect and run; a _c entry bounds only W3"
    exit 0
fi
echo "{\"schema\": \"mpiguard-bounds/2\", \"mpi\": {\"flavor\": \"mpich\", \"version\": \"4.0.2\"}, \"entries\": [${entry/NP/4}]}" >"$TMP/c.json"
expect_status 0 "W3 with a failing Gatherv_c" -- "$MPIGUARD" protect --report "$TMP/r.json" --bounds "$TMP/c.json" \
    --bound 40 --workaround W3 -- $launcher -n 4 "$app" 16 1
grep -q "^coll_check: 46 cases on 4 ranks, n 16, root 1: 0 mismatching$" "$TMP/stdout" ||
    { cat "$TMP/stdout" "$TMP/stderr" >&2; fail "results differ from the unprotected collectives"; }
python3 - "$TMP/r.json" <<'PY' || fail "report content"
import json, sys
f = [x for x in json.load(open(sys.argv[1]))["findings"] if x["kind"] == "workaround"]
used = {x["evidence"]["collective"]: x["evidence"]["workaround"] for x in f}
assert len(used) == 24, used
assert used["MPI_Gatherv"] != "W3", used["MPI_Gatherv"]
assert all(w == "W3" for c, w in used.items() if c != "MPI_Gatherv"), used
PY
pass "mpich: a failing Gatherv_c entry keeps W3 off MPI_Gatherv only; 46 cases byte-identical"
