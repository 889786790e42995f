#!/bin/bash
# Cost of the protection module when no detector fires: each collective timed in one job straight
# into the library (PMPI) and through the module (MPI_* under `mpiguard protect`, no bounds file, so
# only Detector D runs and nothing fires), at 4, 8 and 16 ranks (Open MPI; MPICH 4 and 8), by
# default, with --agree (Gatherv, Scatterv and Alltoallv then pay a control message per call), and
# with a bound on every collective that no call reaches (mode "bound": what a bounds file with a
# bounded entry for the collective costs, Detectors G and X checked on every call), and, as the
# reference, under the least possible PMPI layer (mode "null": null_layer.c preloaded, no mpiguard;
# what any interposition costs on these calls).
# Prints one line per case; the ratio is the figure (docs/collectives.md, "Measurements"): the
# median over ROUNDS rounds (default 21) of the paired ratio, beside "noise", the same median for
# two identical unprotected timings, which says how far this machine lets the figure be read. Where
# a case ran in both modes "default" and "null", a last table gives their quotient: what the
# module costs beyond the null layer.
# Usage: [MODES="default agree bound null"] [NPS="4 8 16"] [FLAVORS="openmpi mpich"] [ROUNDS=21]
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
    mpicc.$flavor -O2 -shared -fPIC -o "$dir/null_$flavor.so" "$(dirname "$0")/null_layer.c" || exit 1
    launcher=mpirun.openmpi
    preload=(-x LD_PRELOAD="$dir/null_$flavor.so")
    [ "$flavor" = mpich ] && launcher=mpiexec.mpich preload=(-genv LD_PRELOAD "$dir/null_$flavor.so")
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
                    job=($launcher -n "$np" "$dir/coll_time_$flavor" "$c" "$n" "$iters" "${ROUNDS:-21}")
                    if [ "$mode" = null ]; then
                        job=($launcher "${preload[@]}" "${job[@]:1}")
                    else
                        job=("$build/bin/mpiguard" protect -q "${opts[@]}" -- "${job[@]}")
                    fi
                    line=$("${job[@]}" 2>/dev/null | grep '^coll_time')
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
ratios = {}
print("| MPI | mode | collective | n | P | unprotected us | ratio (quartiles) | noise (quartiles) |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for line in open(sys.argv[1]):
    m = pat.match(line.strip())
    if m:
        f, mode, c, n, p, us, noise, nq, rq, ratio = m.groups()
        print(f"| {f} | {mode} | {c} | {n} | {p} | {us} | **{ratio}** ({rq}) | {noise} ({nq}) |")
        ratios.setdefault((f, c, n, p), {})[mode] = float(ratio)
both = [(k, r) for k, r in ratios.items() if "default" in r and "null" in r]
if both:
    print("\n| MPI | collective | n | P | module | null layer | module / null layer |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for (f, c, n, p), r in both:
        print(f"| {f} | {c} | {n} | {p} | {r['default']:.3f} | {r['null']:.3f} | "
              f"**{r['default'] / r['null']:.3f}** |")
PY
