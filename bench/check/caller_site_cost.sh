#!/bin/bash
# What the walk to the caller's site costs a recorded call (docs/check-measurements-overhead.md
# "call sites"): bench/hang/call_cost.c with `sendrecv` (a blocking MPI_Sendrecv to itself, 2
# records a call, thread CPU ns per call) under `mpiguard check`, 1 rank, in ROUNDS interleaved
# rounds of three builds of it: C (no walk: the process has no C++ bindings), the same C program
# defining the symbol the rule looks for, MPI::COMM_WORLD (the walk on every record, as every
# process did before the rule), and compiled as C++ with mpicxx (the bindings linked: the walk).
# Prints the medians and the minimums (what a loaded machine disturbs least: its noise only adds
# CPU time) and their ratios to the C program's.
#   bench/check/caller_site_cost.sh [BUILD] [ROUNDS] [FLAVOR]
set -u
build=${1:-build} rounds=${2:-7} flavor=${3:-openmpi} iterations=${ITERATIONS:-200000}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
launcher=$([ "$flavor" = mpich ] && echo mpiexec.mpich || echo mpirun.openmpi)
work=$(mktemp -d /tmp/mg-caller-site.XXXXXX)
trap 'rm -rf "$work"' EXIT
src="$(dirname "$0")/../hang/call_cost.c"
echo 'char _ZN3MPI10COMM_WORLDE;' >"$work/marker.c"
mpicc.$flavor -O2 -o "$work/c" "$src" || exit 1
mpicc.$flavor -O2 -rdynamic -o "$work/walk" "$src" "$work/marker.c" || exit 1
mpicxx.$flavor -O2 -x c++ -o "$work/cxx" "$src" || exit 1
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
minimum() { sort -g | head -1; }
for ((r = 0; r < rounds; r++)); do
    for variant in c walk cxx; do
        "$build/bin/mpiguard" check -q -- "$launcher" -n 1 "$work/$variant" "$iterations" sendrecv \
            2>/dev/null | grep -E '^[0-9.]+$' >>"$work/$variant.ns"
    done
done
echo "MPI_Sendrecv to itself under check, $flavor, 1 rank, $iterations calls, $rounds rounds, CPU ns"
echo "per call, load $(cut -d' ' -f1-3 /proc/loadavg) at the end:"
echo "| of the rounds | C, no walk | C with the walk | C++ (walk) | walk / no walk | C++ / C |"
echo "|---|---|---|---|---|---|"
for stat in median minimum; do
    c=$($stat <"$work/c.ns") walk=$($stat <"$work/walk.ns") cxx=$($stat <"$work/cxx.ns")
    printf '| %s | %.1f | %.1f | %.1f | %.3f | %.3f |\n' "$stat" "$c" "$walk" "$cxx" \
        "$(echo "$walk / $c" | bc -l)" "$(echo "$cxx / $c" | bc -l)"
done
