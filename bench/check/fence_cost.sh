#!/bin/bash
# The cost of Slurm's ring fence, which mpiguard asks for when it starts an Open MPI job through
# srun (docs/environment.md, SLURM_PMIX_FENCE), against Slurm's default, which takes a tree for a
# fence without data and a ring for one that collects data (docs/check-measurements-overhead.md,
# "Slurm's fence"): a trivial Open MPI program (fence_init.c, one rank per node) started by plain
# srun --mpi=pmix on namespace nodes (tests/multinode/nodes.sh, a slurmd on each), without
# SLURM_PMIX_FENCE and with it =ring alternating, REPS runs each, for each node count. Prints,
# medians: the longest MPI_Init of a rank, the span from the first rank entering MPI_Init to the
# last leaving it, srun's wall time, their ring/default ratios; the runs that failed (a rank killed
# by a signal: the race of docs/environment.md's SLURM_PMIX_FENCE), and the 1-minute load while it
# ran; then the ring's cost per node: the slope of the difference of the MPI_Init medians (ring
# minus default) against the node count.
#   bench/check/fence_cost.sh [BUILD] [REPS] [NODE COUNTS...]   (default: build 5 2 4 8 16)
set -u
build=$(realpath "${1:-build}") reps=${2:-5}
shift $(($# < 2 ? $# : 2))
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(2 4 8 16)
here=$(cd "$(dirname "$0")" && pwd)

# one node count, in a shell of its own (nodes.sh's nodes and daemons go with it): a line per run,
# "FENCE INIT SPAN WALL LOAD".
if [ "${FENCE_COST_NODES:-}" ]; then
    export MPIGUARD=$build/bin/mpiguard BUILD=$build
    . "$here/../../tests/lib.sh"
    . "$here/../../tests/multinode/nodes.sh"
    n=$FENCE_COST_NODES
    mn_nodes_up "$n"
    mn_slurm_up
    for ((i = 0; i < reps; i++)); do
        fences=(default ring)
        [ $((i % 2)) -eq 0 ] || fences=(ring default)
        for fence in "${fences[@]}"; do
            ask=(SLURM_PMIX_FENCE=ring)
            [ $fence = ring ] || ask=()
            start=$(date +%s.%N)
            out=$(mn_on 0 env "${ask[@]}" srun --mpi=pmix -N "$n" -n "$n" --kill-on-bad-exit=1 \
                "$FENCE_COST_PROGRAM" 2>&1)
            end=$(date +%s.%N)
            read -r _ init _ span <<<"$(grep '^init ' <<<"$out")"
            [ -n "${span:-}" ] ||
                { echo "$fence failed $(grep -m1 -io "signal [0-9]*\|segmentation fault" <<<"$out")"; continue; }
            echo "$fence $init $span $(echo "$end - $start" | bc) $(cut -d' ' -f1 /proc/loadavg)"
        done
    done
    exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc.openmpi -O2 -o "$work/fence_init" "$here/fence_init.c" || exit 1
median() { sort -n | awk '{v[NR] = $1} END {printf "%.3f\n", v[int((NR + 1) / 2)]}'; }
column() { awk -v f="$1" -v c="$2" '$1 == f && $2 != "failed" {print $c}' "$3" | median; }

echo "| nodes | MPI_Init default / ring: s | ratio | first in to last out default / ring: s | ratio |" \
    "srun default / ring: s | ratio | failed runs default / ring | load |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for n in "${counts[@]}"; do
    FENCE_COST_NODES=$n FENCE_COST_PROGRAM=$work/fence_init bash "$0" "$build" "$reps" >"$work/$n"
    row="| $n"
    for c in 2 3 4; do
        default=$(column default $c "$work/$n") ring=$(column ring $c "$work/$n")
        row="$row | $default / $ring | $(awk -v r="$ring" -v d="$default" 'BEGIN {printf "%.2f", r / d}')"
    done
    failed="$(grep -c '^default failed' "$work/$n") / $(grep -c '^ring failed' "$work/$n")"
    echo "$row | $failed | $(awk '$2 != "failed" {print $5}' "$work/$n" | median | cut -d. -f1) |"
    echo "$n $(column default 2 "$work/$n") $(column ring 2 "$work/$n")" >>"$work/fit"
done
# a ring fence takes a step per node: the slope of ring minus default over the node counts is its
# cost per node here
awk '{n[NR] = $1; d[NR] = $3 - $2; sn += $1; sd += $3 - $2}
    END {mn = sn / NR; md = sd / NR
         for (i = 1; i <= NR; i++) {cov += (n[i] - mn) * (d[i] - md); var += (n[i] - mn) ^ 2}
         if (var > 0) printf "MPI_Init, ring minus default, least squares over the node counts: %+.2f ms per node\n", 1000 * cov / var}' "$work/fit"
