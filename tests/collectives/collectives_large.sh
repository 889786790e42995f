#!/bin/bash
# `mpiguard collectives` tests the large-count `_c` forms where the MPI has them: the tester calls
# MPI_Gatherv_c/MPI_Igatherv_c (MPI_Count counts, true MPI_Aint displacements) and checks every
# byte; the file it writes is schema version 2 (it has `_c` entries) and `mpiguard protect` reads it.
# Where the MPI has no `_c` collectives (Open MPI 4.1.4) they are refused (69) before any test.
# Usage: collectives_large.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
launcher=$(launcher_for "$flavor")
if [ "$flavor" = openmpi ]; then
    expect_status 69 "_c on Open MPI" -- "$MPIGUARD" collectives --collectives Gatherv,Gatherv_c --np 2 \
        --max-count 4 -o "$TMP/b.json" -- $launcher
    expect_stderr "which openmpi 4.1.4 does not have"
    [ -e "$TMP/b.json" ] && fail "a file was written"
    pass "openmpi: the _c forms are refused (69) before any test"
    exit 0
fi
expect_status 0 "collectives _c" -- "$MPIGUARD" collectives --collectives Gatherv_c,Igatherv_c --np 2 \
    --max-count 16 -o "$TMP/b.json" -- $launcher
python3 - "$TMP/b.json" <<'PY' || fail "bounds file content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "mpiguard-bounds/2", d["schema"]
got = {(e["collective"], e["status"], e["safe_count"]) for e in d["entries"]}
assert got == {("Gatherv_c", "unbounded", 16), ("Igatherv_c", "unbounded", 16)}, got
PY
expect_status 0 "protect reads it" -- "$MPIGUARD" protect --bounds "$TMP/b.json" -- $launcher -n 2 \
    "$BUILD/tests/collectives/$flavor/coll_check" 16 1
grep -q "0 mismatching" "$TMP/stdout" || fail "results differ"
pass "mpich: Gatherv_c and Igatherv_c tested up to 16 per process, a version 2 file, read by protect"
