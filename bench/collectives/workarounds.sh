#!/bin/bash
# Each workaround's time relative to the unbroken collective at the same size (the paper's
# Figures 4.6-4.11, with "supposed" triggers): an artificial bound (--bound, form nP) makes every
# call fire, --workaround forces the plan, and each collective is timed in one job through the
# workaround (MPI_*) and straight into the library (PMPI_*). 4 ranks, Open MPI and MPICH (W3, the
# `_c` form, on MPICH only: Open MPI 4.1 has none). Then the cost model's own choice, twice: with
# the engine's default costs, and with the costs `mpiguard collectives` measures first on this MPI
# at this P (a bounds file with only its "costs"). Prints each job's line, then one row per MPI and
# collective with every ratio side by side, all from this one run:
#   | mpich | Gatherv | 2.96 | 2.38 | 1.24 | 1.05 | 1.07 (W3) | 1.02 (W3) |
#   (W1-A, W1-B, W2, W3, model with default costs, model with measured costs; "1.10 (used W1-B)"
#   where the forced one does not apply; "-" none)
# NP (default 4) sets the ranks: NP=2 gives each rank a core of this 2-core machine, where MPICH,
# which busy-polls, is not timing the scheduler.
# Usage: [NP=4] bench/collectives/workarounds.sh BUILD_DIR [COLLECTIVES] [N] [FLAVORS]
set -u
build=${1:?usage: workarounds.sh BUILD_DIR [COLLECTIVES] [N] [FLAVORS]}
colls=${2:-"Bcast Gather Gatherv Allgather Allgatherv Alltoall Alltoallv Allreduce Igather"}
n=${3:-1048576}
flavors=${4:-"openmpi mpich"}
np=${NP:-4}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1
dir=$(mktemp -d /tmp/mg-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
src=$(dirname "$0")/coll_time.c
# The bound: half of the call's n P, so every call fires, W1-B runs 2 rounds (P rounds for
# Reduce_scatter-like totals) and W1-A groups of two ranks.
bound=$((n * np / 2))
rows=()
for flavor in $flavors; do
    mpicc.$flavor -O2 -o "$dir/coll_time_$flavor" "$src" || exit 1
    launcher=mpirun.openmpi
    workarounds="W1A W1B W2"
    if [ "$flavor" = mpich ]; then
        launcher=mpiexec.mpich
        workarounds+=" W3"
    fi
    "$build/bin/mpiguard" collectives -q --collectives Bcast --np "$np" --max-count 1 \
        -o "$dir/costs_$flavor.json" -- $launcher >/dev/null || exit 1
    # run_one CASE_NAME PROTECT_OPTIONS...: prints the job's line, sets ratio and used.
    run_one() {
        local what=$1
        shift
        line=$("$build/bin/mpiguard" protect --bound "$bound" "$@" -- \
            $launcher -n $np "$dir/coll_time_$flavor" "$c" "$n" 20 5 2>"$dir/err" | grep '^coll_time')
        used=$(grep -o 'workaround W[-0-9A-Z]*' "$dir/err" | head -1 | cut -d' ' -f2)
        echo "$flavor: $what, used ${used:-none}: $line"
        ratio=$(echo "$line" | sed -n 's/.*ratio \([0-9.]*\)$/\1/p')
    }
    for c in $colls; do
        row="| $flavor | $c |"
        for w in $workarounds; do
            run_one "forced $w" --workaround "$w"
            cell=" ${ratio:--}"
            [ -n "$used" ] && [ "$used" != "${w/W1/W1-}" ] && cell+=" (used $used)"
            row+="$cell |"
        done
        [ "$flavor" = mpich ] || row+=" - |"
        run_one "model, default costs"
        row+=" ${ratio:--} (${used:-none}) |"
        run_one "model, measured costs" --bounds "$dir/costs_$flavor.json"
        row+=" ${ratio:--} (${used:-none}) |"
        rows+=("$row")
    done
done
echo "| MPI | collective | forced W1-A | forced W1-B | forced W2 | forced W3 | model, default costs | model, measured costs |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"
