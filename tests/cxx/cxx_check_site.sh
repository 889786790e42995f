#!/bin/bash
# `mpiguard check` on binding_deadlock.cpp (2 ranks), built at -O2 -g so that the C++ bindings'
# Recv is inlined into main: exit status 82, one deadlock of both ranks, each rank's call site
# binding_deadlock.cpp at the line of its MPI::COMM_WORLD.Recv, not the MPI header's line the
# address lies in (docs/cli.md "Languages").
# Usage: cxx_check_site.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
source_file="$(dirname "$0")/binding_deadlock.cpp"
recv_line=$(grep -n "MPI::COMM_WORLD.Recv" "$source_file" | cut -d: -f1)
expect_status 82 "check binding_deadlock" -- timeout 120 "$MPIGUARD" check --report "$TMP/check.json" -- \
    $(launcher_for "$flavor") -n 2 "$BUILD/tests/cxx/$flavor/binding_deadlock"
python3 - "$TMP/check.json" "$recv_line" <<'PY' || fail "the deadlock's call sites are not binding_deadlock.cpp's Recv line"
import json, os, sys
r = json.load(open(sys.argv[1]))
deadlocks = [f for f in r["findings"] if f["kind"] == "deadlock"]
assert len(deadlocks) == 1 and sorted(deadlocks[0]["ranks"]) == [0, 1], r["findings"]
sites = sorted((s["rank"], os.path.basename(s.get("file") or ""), s.get("line")) for s in deadlocks[0]["sites"])
assert sites == [(k, "binding_deadlock.cpp", int(sys.argv[2])) for k in (0, 1)], sites
PY
pass "check $flavor binding_deadlock.cpp: the inlined C++ binding's deadlock at binding_deadlock.cpp:$recv_line on both ranks"
