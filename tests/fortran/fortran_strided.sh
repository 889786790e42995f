#!/bin/bash
# `mpiguard run` on strided.F90 (use mpi_f08, 2 ranks): the strided section arrives whole and both
# calls are counted; under MPICH, whose `use mpi_f08` passes it as a non-contiguous descriptor, rank
# 0 says that its MPI_Send went through MPICH's own binding (seen by the C wrapper, without its
# Fortran line); Open MPI passes a contiguous copy and says nothing.
# Usage: fortran_strided.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
app="$BUILD/tests/fortran/$flavor/strided_f08"
expect_status 0 "run strided_f08" -- "$MPIGUARD" run --report "$TMP/run.json" -- $(launcher_for "$flavor") -n 2 "$app"
grep -q "^strided: the section arrived$" "$TMP/stdout" || fail "the section did not arrive"
message="mpiguard\[0\]: a non-contiguous use mpi_f08 buffer went through MPICH's own binding: the call is seen without its Fortran file:line; first in MPI_Send"
if [ "$flavor" = mpich ]; then
    expect_stderr "$message"
else
    grep -q "non-contiguous" "$TMP/stderr" && fail "Open MPI: a buffer said non-contiguous"
fi
python3 -c "import json, sys; c = json.load(open(sys.argv[1]))['tool_data']['mpi_calls']; assert c == [1, 1], c" \
    "$TMP/run.json" || fail "MPI calls counted: expected one on each rank"
pass "strided section $flavor: arrived, both calls counted"
