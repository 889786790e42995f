#!/bin/bash
# `mpiguard run` on a Fortran program (ring.F90, 3 ranks): exit 0, every rank found and interposed,
# and each rank's count of MPI calls exactly the 26 wrapped calls ring.F90 makes (a binding that
# went around the library, or one counted twice, shows here).
# Usage: fortran_run.sh FLAVOR STYLE
. "$(dirname "$0")/../lib.sh"
flavor=$1 style=$2
np=3
app="$BUILD/tests/fortran/$flavor/ring_$style"
report="$TMP/run.json"
expect_status 0 "run ring_$style" -- "$MPIGUARD" run -v --report "$report" -- $(launcher_for "$flavor") -n $np "$app"
expect_stderr "$np of $np ranks found, $np interposed, $((np * 26)) MPI calls"
grep -q "^ring: $np ranks, total 3$" "$TMP/stdout" || fail "the job did not finish its run"
python3 - "$report" $np <<'PY' || fail "report content"
import json, sys
r = json.load(open(sys.argv[1])); np = int(sys.argv[2])
assert r["tool"] == "run" and r["job"]["outcome"] == "completed", r["job"]
assert sorted(e["rank"] for e in r["job"]["ranks"]) == list(range(np)), r["job"]["ranks"]
assert r["tool_data"]["mpi_calls"] == [26] * np, r["tool_data"]
PY
token=$(grep -o 'MPIGUARD_JOB_TOKEN[= ][0-9a-f]*' "$TMP/stderr" | head -1 | cut -c20-)
[ -n "$token" ] || fail "no job token in the verbose output"
[ -z "$(token_processes "$token")" ] || fail "processes of the job left: $(token_processes "$token")"
pass "run $flavor ring_$style: $np ranks interposed, 26 MPI calls each"
