#!/bin/bash
# The capture module's records of a Fortran program, read off the rings as check's agent reads
# them (tests/check_runtime/check_ring_dump.c): each rank's entry records name each function
# exactly as many times as the program's header says the program calls it, and no other function.
# A binding of the MPI's that called another interposed binding (a Fortran wrapper calling MPI_X
# rather than PMPI_X) would add a second record, or one under the other function's name. Issue 26.
# Usage: fortran_records.sh FLAVOR STYLE PROGRAM RING_DUMP
. "$(dirname "$0")/../lib.sh"
flavor=$1 style=$2 program=$3 ring_dump=$4
source_file="$(dirname "$0")/$program.F90"
np=$(sed -n 's/^! np: //p' "$source_file")
records=$(sed -n 's/^! records: //p' "$source_file")
[ -n "$np" ] && [ -n "$records" ] || fail "$program.F90 states no np or records"
app="$BUILD/tests/fortran/$flavor/${program}_$style"
token="fr$$"
capture_preload_options "$flavor" "$token"
"$ring_dump" "$token" 60 >"$TMP/records" &
dump=$!
$(launcher_for "$flavor") -n "$np" "${preload_options[@]}" "$app" >"$TMP/stdout" 2>"$TMP/stderr" ||
    { cat "$TMP/stderr" >&2; kill "$dump"; wait "$dump"; fail "the job failed"; }
wait "$dump" || { cat "$TMP/records" >&2; fail "not every stream ended"; }
python3 - "$TMP/records" "$np" "$records" <<'PY' || fail "$flavor ${program}_$style: records differ from the header's"
import collections, sys
np, want = int(sys.argv[2]), {}
for item in sys.argv[3].split(","):
    name, times = item.split()
    want[name] = int(times)
got = [collections.Counter() for _ in range(np)]
ends = {}
for line in open(sys.argv[1]):
    w = line.split()
    if w[0] == "end":
        ends[int(w[1])] = (int(w[2]), int(w[3]))
    elif w[3] == "1":  # an entry record: one per call
        got[int(w[1])][w[4]] += 1
assert ends == {r: (1, 0) for r in range(np)}, ends  # all finalized, nothing lost
for rank in range(np):
    assert got[rank] == want, (rank, dict(got[rank]))
PY
[ -z "$(token_processes "$token")" ] || fail "processes of the job left: $(token_processes "$token")"
pass "records $flavor ${program}_$style: $records on each of $np ranks"
