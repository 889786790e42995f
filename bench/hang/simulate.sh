#!/bin/sh
# Scale by simulation (docs/design/hang.md "Proof"; docs/hang-simulation.md): runs hang_sim with RUNS
# faulty and RUNS correct runs each, the ParaStack model and the four timeout settings of the
# paper's Table 1 on the same runs, and prints one table.
#   bench/hang/simulate.sh [BUILD_DIR] [RUNS] [NODE_SIZE]      (defaults: ./build, 1000, none)
# Without NODE_SIZE: P = 10^3..10^6, the ranks read directly. With it: P = 10^4..10^6, the ranks read
# through simulated node agents of NODE_SIZE ranks each over the agent protocol (hang_sim --agents),
# and after the table one line per P of what a sampling round and a scan cost on the wire.
# Extra hang_sim options can be passed in HANG_SIM_ARGS (e.g. "--backend ptrace").
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-1000}
node_size=${3:-}
sim=$build/bin/hang_sim
if [ ! -x "$sim" ]; then
    cmake -S "$root" -B "$build" -DMPIGUARD_ENGINES_ONLY=ON >/dev/null
    cmake --build "$build" --target hang_sim -j2 >/dev/null
fi
sizes="1000 10000 100000 1000000"
agents=
if [ -n "$node_size" ]; then
    sizes="10000 100000 1000000"
    agents="--agents $node_size"
fi
tmp=$(mktemp)
trap 'rm -f "$tmp"*' EXIT
for p in $sizes; do
    # shellcheck disable=SC2086
    "$sim" --procs "$p" --runs "$runs" $agents ${HANG_SIM_ARGS:-} >"$tmp.$p"
    head -n 1 "$tmp.$p"
done
first=${sizes%% *}
sed -n 2p "$tmp.$first"
for p in $sizes; do
    tail -n +3 "$tmp.$p" | grep -v '^# agents'
done
for p in $sizes; do
    sed -n "s/^# agents/P=$p agents/p" "$tmp.$p"
done
