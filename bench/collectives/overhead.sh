#!/bin/bash
# Cost of the protection module when no detector fires: each collective timed in one job straight
# into the library (PMPI) and through the module (MPI_* under `mpiguard protect`, no bounds file, so
# only Detector D runs and nothing fires), at 4, 8 and 16 ranks (Open MPI; MPICH 4 and 8), by
# default, with --agree (Gatherv, Scatterv and Alltoallv then pay a control message per call), and
# with a bound on every collective that no call reaches (mode "bound": what a bounds file with a
# bounded entry for the collective costs, Detectors G and X checked on every call), and, as the
# reference, under the least possible PMPI layer (mode "null": null_layer.c preloaded, no mpiguard;
# what any interposition costs on these calls), and under that layer reading N cache lines per call
# (modes "linesN", e.g. lines4 lines8 lines16: the cost of a fast path by the lines it touches),
# and under that layer running Detector D's scan on the irregular ones' vectors (mode "scan": the
# least work D needs on a call, the floor under the module's ratio).
# Prints one line per case; the ratio is the figure (docs/collectives-measurements.md, "Cost when no detector fires"): the
# median over ROUNDS rounds (default 21) of the paired ratio, beside "noise", the same median for
# two identical unprotected timings, which says how far this machine lets the figure be read. Where
# a case ran in both modes "default" and "null", a last table gives their quotient: what the
# module costs beyond the null layer. With REPEATS=R, each case runs in R jobs (the modes taking
# turns) and the last tables give the median over the jobs of each job's ratio, with its quartiles
# across the jobs: a job's own median moves by 1-2% from one job to the next on this machine.
# Usage: [MODES="default agree bound null scan lines8"] [NPS="4 8 16"] [FLAVORS="openmpi mpich"] [ROUNDS=21]
#        [REPEATS=1]
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
    for mode in ${MODES:-}; do
        scan=()
        case $mode in
        null) lines=0 ;;
        scan) lines=0 scan=(-DNULL_LAYER_SCAN -I"$(dirname "$0")/../../src/engines/scaling") ;;
        lines[0-9]*) lines=${mode#lines} ;;
        *) continue ;;
        esac
        mpicc.$flavor -O2 -shared -fPIC -DNULL_LAYER_LINES="$lines" "${scan[@]}" \
            -o "$dir/${mode}_$flavor.so" "$(dirname "$0")/null_layer.c" || exit 1
    done
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
                for rep in $(seq "${REPEATS:-1}"); do
                for mode in ${MODES:-default agree bound}; do
                    opts=()
                    [ "$mode" = agree ] && opts=(--agree)
                    [ "$mode" = bound ] && opts=(--bound 1000000000000000)
                    job=($launcher -n "$np" "$dir/coll_time_$flavor" "$c" "$n" "$iters" "${ROUNDS:-21}")
                    if [ -e "$dir/${mode}_$flavor.so" ]; then
                        preload=(-x LD_PRELOAD="$dir/${mode}_$flavor.so")
                        [ "$flavor" = mpich ] && preload=(-genv LD_PRELOAD "$dir/${mode}_$flavor.so")
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
done

# The lines again as one table: per case the module's ratio (quartiles) and the noise beside it;
# then, over the jobs of each case, the median ratio per mode, and the module's beside the null layer.
python3 - "$dir/lines" <<'PY'
import re, statistics, sys
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
        ratios.setdefault((f, c, n, p), {}).setdefault(mode, []).append(float(ratio))


def spread(values):
    """The median of a case's job ratios, with their quartiles where there are several."""
    if len(values) < 2:
        return f"{values[0]:.3f}"
    q = statistics.quantiles(values, n=4)
    return f"{statistics.median(values):.3f} ({q[0]:.3f}-{q[2]:.3f}, {len(values)} jobs)"


if any(len(v) > 1 for r in ratios.values() for v in r.values()):
    print("\n| MPI | collective | n | P | mode | median over jobs (quartiles) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for (f, c, n, p), r in ratios.items():
        for mode, values in r.items():
            print(f"| {f} | {c} | {n} | {p} | {mode} | {spread(values)} |")
both = [(k, r) for k, r in ratios.items() if "default" in r and "null" in r]
if both:
    print("\n| MPI | collective | n | P | module | null layer | module / null layer |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for (f, c, n, p), r in both:
        module, null = statistics.median(r["default"]), statistics.median(r["null"])
        print(f"| {f} | {c} | {n} | {p} | {module:.3f} | {null:.3f} | **{module / null:.3f}** |")
PY
