#!/bin/bash
# The safe-bound increase by the protection layer on a real failing case (docs/collectives-measurements.md
# "Safe-bound increase"), run by the collective tester, every test checking every byte it received.
# Two cases fail at the same n, where an int product i n of a rank index i < P and the count
# overflows: unprotected, the call is correct up to n = floor(INT_MAX / (P - 1)) and fails at the
# next n.
#   - COLL=Gatherv (the default): MPI_Gatherv of MPI_SIGNED_CHAR with the displacements i n
#     computed in int, as an application would (Prob. 9). Protected with no bounds file: Detector D.
#     Memory: the root holds P n bytes and every rank sends n; 16 GiB at P = 4, n = 2^31 - 2^20.
#   - COLL=Alltoall_inplace BOUNDS=FILE: MPI_Alltoall with MPI_IN_PLACE, which Open MPI 4.1.4
#     runs with the offset right * rcount in int (fixed after it, open-mpi/ompi#10685). Protected
#     with the bounds file `mpiguard collectives` wrote for it: Detector X. Memory: P n bytes per
#     rank plus the library's copy of one block; 12 GiB at P = 3, n = 2^30.
#   - BOUND=N sets the unprotected bound of another case (COLL=Reduce_scatter BOUND=1073741823 at
#     P = 2: Open MPI 4.1.4 fails once the receive counts sum past INT_MAX).
# The protected tests run at the first failing n and at the larger ones given. Prints one line per
# test, then the increase: the largest protected n that passed over the unprotected bound.
# Usage: [COLL=...] [BOUNDS=FILE] [BOUND=N] bench/collectives/safe_bound.sh BUILD_DIR FLAVOR P N...
set -u
build=${1:?usage: safe_bound.sh BUILD_DIR FLAVOR P N...} flavor=${2:?} np=${3:?}
shift 3
case $flavor in
openmpi) launcher=mpirun.openmpi ;;
mpich) launcher=mpiexec.mpich ;;
*) echo "safe_bound.sh: unknown MPI flavour '$flavor' (openmpi or mpich)" >&2 && exit 64 ;;
esac
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
tester=$build/bin/mpiguard-coll-tester-$flavor
coll=${COLL:-Gatherv} bounds=${BOUNDS:-}
dir=$(mktemp -d /tmp/mg-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
bound=${BOUND:-$((2147483647 / (np - 1)))}
passed_max=0
# test PROTECTED N: runs one test, prints its line; true if it passed.
test_at() {
    local t0=$SECONDS rc how=unprotected
    if [ "$1" = yes ]; then
        how=protected
        "$build/bin/mpiguard" protect ${bounds:+--bounds "$bounds"} -- $launcher -n "$np" \
            "$tester" "$coll" 1 "$2" >"$dir/out" 2>&1
    else
        $launcher -n "$np" "$tester" "$coll" 1 "$2" >"$dir/out" 2>&1
    fi
    rc=$?
    local what=passed
    [ $rc -eq 0 ] || what="failed (exit $rc)"
    printf '%-11s P=%-3s n=%-11s %-16s %4d s  %s\n' "$how" "$np" "$2" "$what" $((SECONDS - t0)) \
        "$(grep -o 'detector [A-Z] fired, workaround [A-Z0-9-]*' "$dir/out" | head -1)"
    return $rc
}
test_at no "$bound" || echo "note: the unprotected call failed at its computed bound"
test_at no $((bound + 1)) && echo "note: the unprotected call passed past its computed bound"
for n in $((bound + 1)) "$@"; do
    test_at yes "$n" && [ "$n" -gt "$passed_max" ] && passed_max=$n
done
echo "$flavor $coll P=$np: unprotected bound $bound; protected passed up to $passed_max:" \
    "increase $(awk -v a="$passed_max" -v b="$bound" 'BEGIN { printf "%.2fx", a / b }')"
