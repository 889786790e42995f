#!/bin/bash
# Cost of the protection module when no detector fires: each collective timed in one job straight
# into the library (PMPI) and through the module (MPI_* under `mpiguard protect`, no bounds file, so
# only Detector D runs and nothing fires), at 4, 8 and 16 ranks (Open MPI; MPICH 4 and 8).
# Prints one line per case; the ratio is the figure (docs/collectives.md, "Measurements").
# Usage: bench/collectives/overhead.sh BUILD_DIR [COLLECTIVES] [SIZES]
set -u
build=${1:?usage: overhead.sh BUILD_DIR [COLLECTIVES] [SIZES]}
colls=${2:-"Bcast Gather Gatherv Allgatherv Alltoallv Allreduce Igatherv"}
sizes=${3:-"64 65536"}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1
dir=$(mktemp -d /tmp/mg-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
src=$(dirname "$0")/coll_time.c
for flavor in openmpi mpich; do
    mpicc.$flavor -O2 -o "$dir/coll_time_$flavor" "$src" || exit 1
    launcher=mpirun.openmpi
    [ "$flavor" = mpich ] && launcher=mpiexec.mpich
    nps="4 8 16"
    # MPICH busy-polls when oversubscribed (docs/platform notes): 16 ranks on 2 cores crawl.
    [ "$flavor" = mpich ] && nps="4 8"
    for np in $nps; do
        for c in $colls; do
            for n in $sizes; do
                iters=$((n > 4096 ? 50 : 500))
                # MPICH busy-polls when oversubscribed: fewer iterations past 4 ranks.
                [ "$flavor" = mpich ] && [ "$np" -gt 4 ] && iters=$((iters / 10))
                echo -n "$flavor: "
                "$build/bin/mpiguard" protect -q -- $launcher -n "$np" "$dir/coll_time_$flavor" "$c" "$n" "$iters" 2>/dev/null | grep '^coll_time'
            done
        done
    done
done
