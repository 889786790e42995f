#!/bin/bash
# `mpiguard run` and `mpiguard protect` on a C++ program (ring.cpp, 3 ranks). run: every rank
# observed, each one's five wrapped calls counted (the C API's four and the C++ bindings'
# Allgather), the results the plain run's. protect: with a bound of 40 elements and W1-B
# forced, its in-place Allreduce through MPI's C API (64 elements a rank) and its Allgather through
# the C++ bindings (16) go through the workaround, each reported at its call site (the C call at
# its line of ring.cpp; the binding's call in the MPI's own inline C++ code, whose line the test
# does not hold), every rank is found with its pid, and what rank 0 prints is byte for byte the
# plain run's.
# Usage: cxx_tools.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
np=3
app="$BUILD/tests/cxx/$flavor/ring"
launcher=$(launcher_for "$flavor")
expect_status 0 "plain ring" -- $launcher -n $np "$app"
mv "$TMP/stdout" "$TMP/plain"
expect_status 0 "run ring" -- "$MPIGUARD" run --report "$TMP/run.json" -- $launcher -n $np "$app"
cmp "$TMP/plain" "$TMP/stdout" || fail "results under run differ from the plain run's"
python3 - "$TMP/run.json" "$np" <<'PY' || fail "run report content"
import json, sys
r = json.load(open(sys.argv[1])); np = int(sys.argv[2])
assert [(o["rank"], o["observed"]) for o in r["observation"]] == [(i, True) for i in range(np)], r["observation"]
assert r["tool_data"]["ranks_interposed"] == np and r["tool_data"]["mpi_calls"] == [5] * np, r["tool_data"]
PY
expect_status 0 "protect ring" -- "$MPIGUARD" protect --report "$TMP/r.json" --bound 40 --workaround W1B -- $launcher -n $np "$app"
cmp "$TMP/plain" "$TMP/stdout" || fail "results differ from the plain run's"
expect_stderr "2 call site(s) routed through a workaround, 0 trigger(s) left unprotected"
allreduce=$(grep -n "MPI_Allreduce(MPI_IN_PLACE" "$(dirname "$0")/ring.cpp" | cut -d: -f1)
python3 - "$TMP/r.json" "$allreduce" "$np" <<'PY' || fail "report content"
import json, sys
r = json.load(open(sys.argv[1]))
f = {x["evidence"]["collective"]: x for x in r["findings"] if x["kind"] == "workaround"}
assert sorted(f) == ["MPI_Allgather", "MPI_Allreduce"], sorted(f)
assert all(x["evidence"]["workaround"] == "W1-B" for x in f.values()), f
site = f["MPI_Allreduce"]["sites"][0]
assert (site["file"].rsplit("/", 1)[-1], site["line"]) == ("ring.cpp", int(sys.argv[2])), site
binding = f["MPI_Allgather"]["sites"][0]
assert binding["function"] == "MPI_Allgather" and binding["file"].endswith(".h"), binding
ranks = r["job"]["ranks"]
assert [x["rank"] for x in ranks] == list(range(int(sys.argv[3]))), ranks
assert all(x["pid"] > 0 for x in ranks), ranks
PY
pass "run and protect $flavor ring.cpp: every rank observed, byte-equal results, the C API's Allreduce and the C++ bindings' Allgather routed, every rank found"
