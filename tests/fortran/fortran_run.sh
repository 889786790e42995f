#!/bin/bash
# `mpiguard run` on a Fortran program: exit 0, every rank found and interposed, each rank's count
# of MPI calls exactly the wrapped calls the program's header states (a binding that went around
# the library, or one counted twice, shows here), and the line it prints as stated (its results,
# which the program checks itself).
# Usage: fortran_run.sh FLAVOR STYLE PROGRAM
. "$(dirname "$0")/../lib.sh"
flavor=$1 style=$2 program=$3
source_file="$(dirname "$0")/$program.F90"
np=$(sed -n 's/^! np: //p' "$source_file")
calls=$(sed -n 's/^! calls: //p' "$source_file")
prints=$(sed -n 's/^! prints: //p' "$source_file")
[ -n "$np" ] && [ -n "$calls" ] && [ -n "$prints" ] || fail "$program.F90 states no np, calls or prints"
app="$BUILD/tests/fortran/$flavor/${program}_$style"
report="$TMP/run.json"
expect_status 0 "run ${program}_$style" -- "$MPIGUARD" run -v --report "$report" -- $(launcher_for "$flavor") -n $np "$app"
expect_stderr "$np of $np ranks found, $np interposed, $((np * calls)) MPI calls"
grep -qxF "$prints" "$TMP/stdout" || fail "the job did not print '$prints'"
python3 - "$report" $np $calls <<'PY' || fail "report content"
import json, sys
r = json.load(open(sys.argv[1])); np, calls = int(sys.argv[2]), int(sys.argv[3])
assert r["tool"] == "run" and r["job"]["outcome"] == "completed", r["job"]
assert sorted(e["rank"] for e in r["job"]["ranks"]) == list(range(np)), r["job"]["ranks"]
assert r["tool_data"]["mpi_calls"] == [calls] * np, r["tool_data"]
PY
token=$(grep -o 'MPIGUARD_JOB_TOKEN[= ][0-9a-f]*' "$TMP/stderr" | head -1 | cut -c20-)
[ -n "$token" ] || fail "no job token in the verbose output"
[ -z "$(token_processes "$token")" ] || fail "processes of the job left: $(token_processes "$token")"
pass "run $flavor ${program}_$style: $np ranks interposed, $calls MPI calls each"
