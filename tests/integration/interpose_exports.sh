#!/bin/bash
# What the preloaded libraries put in every application's symbol namespace (issue 26: no libc
# symbol overridden under run and hang, as mpiP's model has it): each MPI's interposition library
# defines the MPI entry points, the sampler's call counter and the process-end hook of check's
# _exit object, nothing else (no _exit), and needs nothing of libmpi by a strong reference (it is
# preloaded into launchers and programs without MPI too); check's own object (libmpiguard-check-exit.so, preloaded
# by check alone) defines _exit alone. Read with nm -D from the built files.
. "$(dirname "$0")/../lib.sh"
# others LIB: the dynamic symbols LIB defines that are not MPI entry points, one line, sorted.
others() { nm -D --defined-only "$1" | awk '$3 !~ /^(MPI|mpi)_/ {print $3}' | sort | paste -sd' '; }
for flavor in openmpi mpich; do
    lib="$BUILD/lib/libmpiguard-$flavor.so"
    nm -D --defined-only "$lib" | grep -q " T MPI_Send$" || fail "$flavor: no MPI_Send wrapper in $lib"
    got=$(others "$lib")
    [ "$got" = "capture_finalized_exit mpiguard_calls_entered" ] || fail "$flavor's library defines '$got'"
    # a strong reference to libmpi would stop the library loading into a process without MPI
    strong=$(nm -D --undefined-only "$lib" | awk '$1 == "U" && $2 !~ /@GLIBC/ {print $2}' | paste -sd' ')
    [ -z "$strong" ] || fail "$flavor's library needs symbols only libmpi has: $strong"
done
got=$(others "$BUILD/lib/libmpiguard-check-exit.so")
[ "$got" = "_exit" ] || fail "check's exit object defines '$got', not _exit alone"
pass "the interposition libraries define no libc symbol; check's exit object defines _exit alone"
