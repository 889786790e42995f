#!/bin/bash
# `mpiguard protect` refuses bad bounds files before starting anything, with the documented
# statuses: 66 missing or unreadable, 65 malformed, another schema version, another MPI or version,
# a large-count `_c` entry in a version 1 file.
. "$(dirname "$0")/../lib.sh"
app="$BUILD/tests/collectives/openmpi/coll_check"
run() { expect_status "$1" "$2" -- "$MPIGUARD" protect --bounds "$3" -- mpirun.openmpi -n 2 "$app"; }
run 66 "missing file" "$TMP/none.json"
expect_stderr "cannot be read"
echo 'not json' >"$TMP/bad.json"
run 65 "not JSON" "$TMP/bad.json"
expect_stderr "not valid JSON"
echo '{"schema": "mpiguard-report/1"}' >"$TMP/other.json"
run 65 "another schema" "$TMP/other.json"
expect_stderr "not an mpiguard safe-bounds file"
echo '{"schema": "mpiguard-bounds/5", "mpi": {}, "entries": []}' >"$TMP/v5.json"
run 65 "another version" "$TMP/v5.json"
expect_stderr "another version of the safe-bounds schema"
echo '{"schema": "mpiguard-bounds/1", "mpi": {"flavor": "mpich", "version": "4.0.2"}, "entries": []}' >"$TMP/mpich.json"
run 65 "another MPI" "$TMP/mpich.json"
expect_stderr "measured on mpich 4.0.2, but this job uses openmpi"
echo '{"schema": "mpiguard-bounds/1", "mpi": {"flavor": "openmpi", "version": "1.10.0"}, "entries": []}' >"$TMP/old.json"
run 65 "another version of the MPI" "$TMP/old.json"
expect_stderr "but the installed openmpi is 4.1.4"
echo '{"schema": "mpiguard-bounds/1", "mpi": {"flavor": "openmpi", "version": "4.1.4"}, "entries": [{"collective": "Gatherv", "type_size": 1, "np": 4, "safe_count": -3, "class": "G", "form": "nP", "status": "bounded"}]}' >"$TMP/entry.json"
run 65 "a bad entry" "$TMP/entry.json"
expect_stderr "entry 0 is malformed"
echo '{"schema": "mpiguard-bounds/1", "mpi": {"flavor": "openmpi", "version": "4.1.4"}, "entries": [{"collective": "Gatherv_c", "type_size": 1, "np": 4, "safe_count": 3, "class": "G", "form": "nP", "status": "bounded"}]}' >"$TMP/c1.json"
run 65 "a _c entry in a version 1 file" "$TMP/c1.json"
expect_stderr "entry 0 is malformed (a large-count \`_c\` entry needs mpiguard-bounds/2, an in-place one mpiguard-bounds/3, a form sn(P-1) or n(P-1) mpiguard-bounds/4)"
echo '{"schema": "mpiguard-bounds/2", "mpi": {"flavor": "openmpi", "version": "4.1.4"}, "entries": [{"collective": "Alltoall_inplace", "type_size": 1, "np": 3, "safe_count": 3, "class": "X", "form": null, "status": "bounded"}]}' >"$TMP/ip2.json"
run 65 "an in-place entry in a version 2 file" "$TMP/ip2.json"
expect_stderr "entry 0 is malformed (an in-place entry needs mpiguard-bounds/3, a form sn(P-1) or n(P-1) mpiguard-bounds/4)"
echo '{"schema": "mpiguard-bounds/3", "mpi": {"flavor": "openmpi", "version": "4.1.4"}, "entries": [{"collective": "Gatherv", "type_size": 1, "np": 4, "safe_count": 3, "class": "G", "form": "n(P-1)", "status": "bounded"}]}' >"$TMP/pm1v3.json"
run 65 "a (P-1) form in a version 3 file" "$TMP/pm1v3.json"
expect_stderr "entry 0 is malformed (a form sn(P-1) or n(P-1) needs mpiguard-bounds/4)"
echo '{"schema": "mpiguard-bounds/4", "mpi": {"flavor": "openmpi", "version": "4.1.4"}, "entries": [{"collective": "Gather", "type_size": 1, "np": 4, "safe_count": 3, "class": "X", "form": null, "status": "bounded"}, {"collective": "Gatherv", "type_size": 1, "np": 4, "safe_count": 3, "class": "G", "form": "n(P-2)", "status": "bounded"}]}' >"$TMP/noform.json"
run 65 "a form of no name" "$TMP/noform.json"
expect_stderr "entry 1 is malformed (unknown form \"n(P-2)\")"
echo '{"schema": "mpiguard-bounds/1", "mpi": {"flavor": "openmpi", "version": "4.1.4"}, "entries": [{"collective": "Gatherw", "type_size": 1, "np": 4, "safe_count": 3, "class": "X", "form": null, "status": "bounded"}]}' >"$TMP/nocoll.json"
run 65 "a collective of no name" "$TMP/nocoll.json"
expect_stderr "entry 0 is malformed (unknown collective \"Gatherw\")"
expect_status 64 "bad workaround" -- "$MPIGUARD" protect --workaround W9 -- mpirun.openmpi -n 2 "$app"
expect_status 69 "W3 without large-count collectives" -- "$MPIGUARD" protect --workaround W3 -- mpirun.openmpi -n 2 "$app"
expect_stderr "which openmpi 4.1.4 does not have"
expect_status 64 "bad --bound-form" -- "$MPIGUARD" protect --bound 4 --bound-form "n(P-2)" -- mpirun.openmpi -n 2 "$app"
expect_stderr "option --bound-form takes one of nP|snP|sn|n|sn(P-1)|n(P-1), not 'n(P-2)'"
expect_status 64 "bad --bound-calls" -- "$MPIGUARD" protect --bound 4 --bound-calls some -- mpirun.openmpi -n 2 "$app"
expect_status 69 "--bound-calls large without large-count collectives" -- "$MPIGUARD" protect --bound 4 --bound-calls large -- mpirun.openmpi -n 2 "$app"
expect_stderr "bound-calls large or all bounds the MPI-4 large-count collectives"
expect_status 64 "--no-protect with --bound-calls" -- "$MPIGUARD" run --no-protect --bound-calls all -- mpirun.openmpi -n 2 "$app"
expect_status 64 "--no-protect with --agree" -- "$MPIGUARD" run --no-protect --agree -- mpirun.openmpi -n 2 "$app"
expect_status 64 "--agree with a value" -- "$MPIGUARD" protect --agree=yes -- mpirun.openmpi -n 2 "$app"
# The library's own file (the CLI writes it; MPIGUARD_PROTECT_BOUNDS set by hand here) with a line
# of blanks: the module says which line and stays off, and the job runs on unprotected.
printf 'mpiguard-protect-bounds/4\nmpi openmpi 4.1.4\n   \n' >"$TMP/blank.txt"
expect_status 0 "a blank line in the library's bounds file" -- mpirun.openmpi -n 2 \
    -x LD_PRELOAD="$BUILD/lib/libmpiguard-openmpi.so" -x MPIGUARD_MODULES=protect \
    -x MPIGUARD_PROTECT_BOUNDS="$TMP/blank.txt" "$app"
expect_stderr "protect module off: malformed line in the bounds file: (blank)"
grep -q "0 mismatching" "$TMP/stdout" || fail "the job did not run unprotected"
# A costs line whose last field is not 0 or 1 is malformed too.
printf 'mpiguard-protect-bounds/4\nmpi openmpi 4.1.4\ncosts 2 9000000 400 80 1500000 60000000 7\n' >"$TMP/costs.txt"
expect_status 0 "a bad costs line in the library's bounds file" -- mpirun.openmpi -n 2 \
    -x LD_PRELOAD="$BUILD/lib/libmpiguard-openmpi.so" -x MPIGUARD_MODULES=protect \
    -x MPIGUARD_PROTECT_BOUNDS="$TMP/costs.txt" "$app"
expect_stderr "protect module off: malformed line in the bounds file: costs"
# A good file: a Class G bound on Gather at 1 element per process trips every Gather of coll_check.
echo '{"schema": "mpiguard-bounds/1", "mpi": {"flavor": "openmpi", "version": "4.1.4"}, "entries": [{"collective": "Gather", "type_size": 4, "np": 2, "safe_count": 8, "class": "G", "form": "nP", "status": "bounded"}, {"collective": "Igather", "type_size": 4, "np": 2, "safe_count": 8, "class": "X", "form": null, "status": "bounded"}, {"collective": "Bcast", "type_size": 4, "np": 2, "safe_count": 1048576, "class": "none", "form": null, "status": "unbounded"}]}' >"$TMP/good.json"
expect_status 0 "good bounds" -- "$MPIGUARD" protect --bounds "$TMP/good.json" -- mpirun.openmpi -n 2 "$app" 16 1
grep -q "0 mismatching" "$TMP/stdout" || fail "results differ"
expect_stderr "MPI_Gather at .*: detector G fired, workaround W"
expect_stderr "MPI_Igather at .*: detector X fired, workaround W"
grep -q "MPI_Bcast at" "$TMP/stderr" && fail "an unbounded entry acted as a bound"
# The (P - 1) forms: an entry of a version 4 file, and --bound-form (n (P - 1) = 16 at P = 2).
echo '{"schema": "mpiguard-bounds/4", "mpi": {"flavor": "openmpi", "version": "4.1.4"}, "entries": [{"collective": "Gather", "type_size": 4, "np": 2, "safe_count": 8, "class": "G", "form": "n(P-1)", "status": "bounded"}]}' >"$TMP/pm1.json"
expect_status 0 "a (P-1) form" -- "$MPIGUARD" protect --bounds "$TMP/pm1.json" -- mpirun.openmpi -n 2 "$app" 16 1
grep -q "0 mismatching" "$TMP/stdout" || fail "results differ"
expect_stderr "MPI_Gather at .*: detector G fired, workaround W"
expect_status 0 "--bound-form n(P-1)" -- "$MPIGUARD" protect --bound 8 --bound-form "n(P-1)" -- mpirun.openmpi -n 2 "$app" 16 1
grep -q "0 mismatching" "$TMP/stdout" || fail "results differ"
expect_stderr "MPI_Allgather at .*: detector G fired, workaround W"
pass "bounds files: 66/65 for missing, malformed, other schema, other MPI or version, a _c entry in version 1, an in-place one in version 2, a (P-1) form in version 3, a form or collective of no name; the library's file with a blank line or a bad costs line leaves the module off; W3 and --bound-calls large on Open MPI 69, a bad --bound-form or --bound-calls 64; a good one protects, also with a (P-1) form in the file or in --bound-form"
