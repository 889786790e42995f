#!/bin/bash
# Which build wraps the application's own MPI-4 large-count collectives (MPI_Gatherv_c, ...):
# docs/design/collectives.md, "The application's `_c` calls". The results under the module are
# protect_results_mpich_c_* (protect_results.sh ... c).
# mpich: the interposition library exports exactly the 24 `_c` wrappers of the protected
#   collectives and the 27 of the other calls `mpiguard check` captures (and still the int ones);
#   preloaded with no module on, they pass coll_check_c's 92 cases through unchanged.
# openmpi (4.1.4 has no `_c` collectives): the library has no `_c` wrapper and no reference to a
#   `_c` function; coll_check_c was built without them and says so (77); `--bound-calls large`
#   (and all) is refused with 69, naming the MPI, before the job starts, by protect and by run.
# Usage: protect_large.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
lib="$BUILD/lib/libmpiguard-$flavor.so"
nm -D "$lib" | grep -q " T MPI_Gatherv$" || fail "the $flavor build lost its int wrappers"
launcher=$(launcher_for "$flavor")
if [ "$flavor" = openmpi ]; then
    nm -D "$lib" | grep -E " (MPI|PMPI)_[A-Za-z_]*_c$" && fail "the Open MPI build has _c symbols"
    expect_status 77 "coll_check_c without _c collectives" -- "$BUILD/tests/collectives/$flavor/coll_check_c"
    grep -q "this MPI has no large-count (_c) collectives" "$TMP/stdout" || fail "coll_check_c: $(cat "$TMP/stdout")"
    for calls in large all; do
        for tool in protect run; do
            expect_status 69 "$tool --bound-calls $calls" -- "$MPIGUARD" $tool --bound 40 --bound-calls $calls -- $launcher -n 2 "$BUILD/tests/collectives/$flavor/coll_check"
            expect_stderr "bounds the MPI-4 large-count collectives (MPI_Gatherv_c, ...), which openmpi 4.1.4 does not have"
            [ -s "$TMP/stdout" ] && fail "$tool --bound-calls $calls: the job ran"
        done
    done
    pass "openmpi: no _c wrapper or reference in the library; --bound-calls large|all refused (69)"
    exit 0
fi
wrappers=$(nm -D "$lib" | sed -n "s/^[0-9a-f]* T \(MPI_[A-Za-z_]*_c\)$/\1/p" | sort | tr '\n' ' ')
want=""
for c in Allgather Allgatherv Allreduce Alltoall Alltoallv Bcast Gather Gatherv Reduce Reduce_scatter Scatter Scatterv; do
    want+="MPI_${c}_c MPI_I$(echo "${c:0:1}" | tr 'A-Z' 'a-z')${c:1}_c "
done
# and the `_c` forms of the other calls the capture module of `mpiguard check` records
# (docs/design/check.md "Capture"): no module protects them.
for c in Send Bsend Ssend Rsend Recv Sendrecv Sendrecv_replace Isend Ibsend Issend Irsend Irecv \
         Send_init Bsend_init Ssend_init Rsend_init Recv_init Mrecv Imrecv Alltoallw \
         Ialltoallw Reduce_scatter_block Ireduce_scatter_block Scan Iscan Exscan Iexscan; do
    want+="MPI_${c}_c "
done
want=$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')
[ "$wrappers" = "$want" ] || fail "the MPICH build's _c wrappers: $wrappers"
# With no module on, a `_c` wrapper passes the call straight to the library.
expect_status 0 "coll_check_c through the wrappers, no module" -- env LD_PRELOAD="$lib" \
    $launcher -n 4 "$BUILD/tests/collectives/$flavor/coll_check_c" 16 1 1
grep -q "^coll_check_c: 92 cases on 4 ranks, n 16, root 1: 0 mismatching$" "$TMP/stdout" ||
    fail "the _c wrappers changed a result"
pass "mpich: the library exports the 24 + 27 _c wrappers, which with no module on change nothing"
