#!/bin/bash
# What reading the sampled ranks through agents costs on a healthy job (docs/hang-measurements-agents.md
# "Reading through agents"): `mpiguard hang --agents NAGENTS` watches the cg example at NP ranks
# for SECONDS, and its -v summary says how many rank readings the watch took, in how many reading
# rounds (one request frame to each agent that owns a rank read, all answers then awaited), with
# the frames, bytes and wall time of a round. NAGENTS/FANOUT reads the agents through relays of
# FANOUT each (--agent-fanout; bench/hang/relays.sh). With MPIGUARD2, a second build's binary
# watches the same job right after, for a side-by-side line.
#   bench/hang/agent_rounds.sh [BUILD] [NP] [SECONDS] [NAGENTS[/FANOUT]] [FLAVOR] [MPIGUARD2]
set -u
build=${1:-build} np=${2:-12} seconds=${3:-20} agents=${4:-3} flavor=${5:-openmpi} other=${6:-}
nagents=${agents%/*} relays=()
[ "$agents" = "$nagents" ] || relays=(--agent-fanout "${agents#*/}")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
launcher=$([ "$flavor" = mpich ] && echo mpiexec.mpich || echo mpirun.openmpi)
work=$(mktemp -d /tmp/mg-agent-rounds.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "# $(date -u +%FT%TZ) load $(cut -d' ' -f1 /proc/loadavg); cg, $np ranks ($flavor), $seconds s, $nagents agents${relays:+, --agent-fanout ${agents#*/}}"
for guard in "$build/bin/mpiguard" $other; do
    "$guard" hang -v --seed 4 --agents "$nagents" "${relays[@]}" -- "$launcher" -n "$np" \
        "$build/examples/$flavor/cg" --seconds "$seconds" >/dev/null 2>"$work/stderr"
    readings=$(sed -n 's/.*monitoring cost: \([0-9]*\) rank readings.*/\1/p' "$work/stderr")
    requests=$(sed -n 's/.*: \([0-9]*\) requests$/\1/p' "$work/stderr" | awk '{s += $1} END {print s}')
    rounds=$(sed -n 's/.*hang: \(.*reading rounds.*\)/\1/p' "$work/stderr")
    echo "$guard: $readings rank readings, $requests agent requests${rounds:+; $rounds}"
done
