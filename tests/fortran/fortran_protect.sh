#!/bin/bash
# `mpiguard protect` on a Fortran program (ring.F90, 3 ranks): with a bound of 40 elements and
# W1-B forced, ring's in-place Allreduce (64 elements a rank) and its Allgather (16) go through the
# workaround, each reported at its Fortran file:line, and what rank 0 prints is byte for byte the
# plain run's. Then protect_line.F90, whose Allreduce under `use mpi` and `use mpi_f08` has no line
# of its own in gfortran 12's line table: reported at its line, read from the source, not the
# program statement's.
# Usage: fortran_protect.sh FLAVOR STYLE
. "$(dirname "$0")/../lib.sh"
flavor=$1 style=$2
np=3
app="$BUILD/tests/fortran/$flavor/ring_$style"
launcher=$(launcher_for "$flavor")
expect_status 0 "plain ring_$style" -- $launcher -n $np "$app"
mv "$TMP/stdout" "$TMP/plain"
expect_status 0 "protect ring_$style" -- "$MPIGUARD" protect --report "$TMP/r.json" --bound 40 --workaround W1B -- $launcher -n $np "$app"
cmp "$TMP/plain" "$TMP/stdout" || fail "results differ from the plain run's"
expect_stderr "2 call site(s) routed through a workaround, 0 trigger(s) left unprotected"
source_file="$(dirname "$0")/ring.F90"
allreduce=$(grep -n "call MPI_Allreduce(MPI_IN_PLACE" "$source_file" | cut -d: -f1)
allgather=$(grep -n "call MPI_Allgather(" "$source_file" | cut -d: -f1)
python3 - "$TMP/r.json" "$allreduce" "$allgather" <<'PY' || fail "report content"
import json, sys
r = json.load(open(sys.argv[1]))
f = sorted((x for x in r["findings"] if x["kind"] == "workaround"), key=lambda x: x["sites"][0]["line"])
got = [(x["evidence"]["collective"], x["evidence"]["workaround"], x["sites"][0]["file"].rsplit("/", 1)[-1],
        x["sites"][0]["line"]) for x in f]
assert got == [("MPI_Allreduce", "W1-B", "ring.F90", int(sys.argv[2])),
               ("MPI_Allgather", "W1-B", "ring.F90", int(sys.argv[3]))], got
PY
line_app="$BUILD/tests/fortran/$flavor/protect_line_$style"
expect_status 0 "protect protect_line_$style" -- "$MPIGUARD" protect --report "$TMP/line.json" --bound 40 --workaround W1B -- $launcher -n $np "$line_app"
grep -q "sum: 384" "$TMP/stdout" || fail "protect_line_$style printed no sum of 384"
allreduce=$(grep -n "call MPI_Allreduce(" "$(dirname "$0")/protect_line.F90" | cut -d: -f1)
python3 - "$TMP/line.json" "$allreduce" <<'PY' || fail "protect_line report content"
import json, sys
r = json.load(open(sys.argv[1]))
sites = [(s["file"].rsplit("/", 1)[-1], s["line"], s.get("line_is")) for x in r["findings"] for s in x["sites"]]
assert sites and set(sites) == {("protect_line.F90", int(sys.argv[2]), None)}, sites
PY
pass "protect $flavor ring_$style: byte-equal results, Allreduce and Allgather routed at their Fortran lines; protect_line_$style's Allreduce at its line"
