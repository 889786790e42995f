#!/bin/bash
# How often `mpiguard run` and `mpiguard protect` wake while a job runs (docs/design/collectives.md, "What
# `mpiguard run` does"): mpiguard's own voluntary context switches, from /proc/PID/status, over
# WATCH_SECONDS (default 8) of a 2-rank Open MPI stencil job, measured from 4 s after the start
# (the ranks are found by then). With a second build directory, each tool runs under both, the
# base first.
# Usage: [WATCH_SECONDS=8] bench/collectives/wakeups.sh BUILD [BASE_BUILD]
set -u
build=${1:?usage: wakeups.sh BUILD [BASE_BUILD]}
base=${2:-}
span=${WATCH_SECONDS:-8}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1
app="$build/examples/openmpi/stencil"
switches() { awk '/^voluntary_ctxt_switches/ {print $2}' "/proc/$1/status" 2>/dev/null; }
for b in $base $build; do
    for tool in run protect; do
        # enough iterations to outlast the measurement (about 17 000 a second here)
        "$b/bin/mpiguard" "$tool" -q -- mpirun.openmpi -n 2 "$app" \
            --iterations $(((span + 8) * 20000)) >/dev/null 2>&1 &
        pid=$!
        sleep 4
        first=$(switches $pid)
        sleep "$span"
        last=$(switches $pid)
        wait $pid
        if [ -z "$first" ] || [ -z "$last" ]; then
            echo "$b $tool: the job ended before the measurement did"
        else
            echo "$b $tool: $((last - first)) voluntary context switches in $span s"
        fi
    done
done
