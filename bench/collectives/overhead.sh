#!/bin/bash
# Cost of the protection module when no detector fires: each collective timed in one job straight
# into the library (PMPI) and through the module (MPI_* under `mpiguard protect`, no bounds file, so
# only Detector D runs and nothing fires), at 4, 8 and 16 ranks (Open MPI; MPICH 4 and 8), by
# default, with --agree (Gatherv, Scatterv and Alltoallv then pay a control message per call), and
# with a bound on every collective that no call reaches (mode "bound": what a bounds file with a
# bounded entry for the collective costs, Detectors G and X checked on every call).
# Prints one line per case; the ratio is the figure (docs/collectives.md, "Measurements"): the
# median over ROUNDS rounds (default 21) of the paired ratio, beside "noise", the same median for
# two identical unprotected timings, which says how far this machine lets the figure be read.
# Usage: [MODES="default agree bound"] [NPS="4 8 16"] [FLAVORS="openmpi mpich"] [ROUNDS=21]
#        bench/collectives/overhead.sh BUILD_DIR [COLLECTIVES] [SIZES]
set -u
build=${1:?usage: overhead.sh BUILD_DIR [COLLECTIVES] [SIZES]}
colls=${2:-"Bcast Gather Gatherv Allgatherv Alltoallv Allreduce Igatherv"}
sizes=${3:-"64 65536"}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1
dir=$(mktemp -d /tmp/mg-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
src=$(dirname "$0")/coll_time.c
for flavor in ${FLAVORS:-openmpi mpich}; do
    mpicc.$flavor -O2 -o "$dir/coll_time_$flavor" "$src" || exit 1
    launcher=mpirun.openmpi
    [ "$flavor" = mpich ] && launcher=mpiexec.mpich
    nps=${NPS:-"4 8 16"}
    # MPICH busy-polls when oversubscribed (docs/platform notes): 16 ranks on 2 cores crawl.
    [ "$flavor" = mpich ] && nps=${NPS:-"4 8"}
    for np in $nps; do
        for c in $colls; do
            for n in $sizes; do
                iters=$((n > 4096 ? 20 : 200))
                # MPICH busy-polls when oversubscribed: fewer iterations past 4 ranks.
                [ "$flavor" = mpich ] && [ "$np" -gt 4 ] && iters=$((iters / 10))
                for mode in ${MODES:-default agree bound}; do
                    opts=()
                    [ "$mode" = agree ] && opts=(--agree)
                    [ "$mode" = bound ] && opts=(--bound 1000000000000000)
                    line=$("$build/bin/mpiguard" protect -q "${opts[@]}" -- $launcher -n "$np" "$dir/coll_time_$flavor" "$c" "$n" "$iters" "${ROUNDS:-21}" 2>/dev/null | grep '^coll_time')
                    echo "$flavor $mode: $line" | tee -a "$dir/lines"
                done
            done
        done
    done
done

# The lines again as one table: per case the module's ratio (quartiles) and the noise beside it.
python3 - "$dir/lines" <<'PY'
import re, sys
pat = re.compile(r"^(\w+) (\w+): coll_time: (\w+) n (\d+) P (\d+), .*: unprotected ([\d.]+) us, .*; "
                 r"noise ([\d.]+) \(quartiles ([\d.-]+)\); quartiles ([\d.-]+), ratio ([\d.]+)$")
print("| MPI | mode | collective | n | P | unprotected us | ratio (quartiles) | noise (quartiles) |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for line in open(sys.argv[1]):
    m = pat.match(line.strip())
    if m:
        f, mode, c, n, p, us, noise, nq, rq, ratio = m.groups()
        print(f"| {f} | {mode} | {c} | {n} | {p} | {us} | **{ratio}** ({rq}) | {noise} ({nq}) |")
PY
