#!/bin/bash
# `mpiguard check` on a C++ program (2 ranks) that errs through the MPI's C++ bindings: the
# finding's call site on each rank is the program's .cpp line of the call, not the MPI header's
# line the return address lies in (docs/cli.md "Languages"). binding_deadlock.cpp built at -O2 -g
# (binding_deadlock: the bindings' Recv inlined into main) and at -O0 -g (binding_deadlock_O0: the
# binding a frame of its own, the site one frame up): exit status 82, one deadlock of both ranks
# at the line of MPI::COMM_WORLD.Recv. binding_usage.cpp at -O0 -g: an op_type_mismatch on each
# rank at the line of MPI::COMM_WORLD.Allreduce. binding_finalized.cpp at -O0 -g: a
# stuck_on_terminated, rank 0 at the line of MPI::Finalize, rank 1 at MPI::COMM_WORLD.Recv's.
# Usage: cxx_check_site.sh FLAVOR PROGRAM (a binary of build/tests/cxx/FLAVOR)
. "$(dirname "$0")/../lib.sh"
flavor=$1 program=$2
case $program in
binding_deadlock*) source_file=binding_deadlock.cpp call="MPI::COMM_WORLD.Recv" kind=deadlock status=82 ;;
binding_usage) source_file=binding_usage.cpp call="MPI::COMM_WORLD.Allreduce" kind=op_type_mismatch status=80 ;;
binding_finalized) source_file=binding_finalized.cpp call0="MPI::Finalize" call="MPI::COMM_WORLD.Recv" kind=stuck_on_terminated status=82 ;;
*) fail "no expectation for $program" ;;
esac
# rank 1's line, and rank 0's (the same unless call0 names rank 0's call)
line=$(grep -n "$call" "$(dirname "$0")/$source_file" | cut -d: -f1)
line0=$(grep -n "${call0:-$call}" "$(dirname "$0")/$source_file" | cut -d: -f1)
expect_status $status "check $program" -- timeout 120 "$MPIGUARD" check --report "$TMP/check.json" -- \
    $(launcher_for "$flavor") -n 2 "$BUILD/tests/cxx/$flavor/$program"
python3 - "$TMP/check.json" $kind $source_file "$line0" "$line" <<'PY' || fail "the $kind's call sites are not $source_file:$line0 and :$line"
import json, os, sys
r = json.load(open(sys.argv[1]))
kind, source, lines = sys.argv[2], sys.argv[3], [int(n) for n in sys.argv[4:6]]
found = [f for f in r["findings"] if f["kind"] == kind]
sites = sorted((s["rank"], os.path.basename(s.get("file") or ""), s.get("line"))
               for f in found for s in f["sites"])
assert sites == [(k, source, lines[k]) for k in (0, 1)], (sites, r["findings"])
if kind == "deadlock":
    assert len(found) == 1 and sorted(found[0]["ranks"]) == [0, 1], found
PY
pass "check $flavor $program: the $kind at $source_file:$line0 (rank 0) and :$line (rank 1)"
