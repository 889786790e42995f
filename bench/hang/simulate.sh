#!/bin/sh
# Scale by simulation (docs/design/hang.md "Proof"; docs/hang-simulation.md): runs hang_sim at
# P = 10^3, 10^4, 10^5, 10^6 with RUNS faulty and RUNS correct runs each, the ParaStack model and the
# four timeout settings of the paper's Table 1 on the same runs, and prints one table.
#   bench/hang/simulate.sh [BUILD_DIR] [RUNS]      (defaults: ./build, 1000)
# Extra hang_sim options can be passed in HANG_SIM_ARGS (e.g. "--backend ptrace").
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-1000}
sim=$build/bin/hang_sim
if [ ! -x "$sim" ]; then
    cmake -S "$root" -B "$build" -DMPIGUARD_ENGINES_ONLY=ON >/dev/null
    cmake --build "$build" --target hang_sim -j2 >/dev/null
fi
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for p in 1000 10000 100000 1000000; do
    # shellcheck disable=SC2086
    "$sim" --procs "$p" --runs "$runs" ${HANG_SIM_ARGS:-} >"$tmp.$p"
    head -n 1 "$tmp.$p"
done
sed -n 2p "$tmp.1000"
for p in 1000 10000 100000 1000000; do
    tail -n +3 "$tmp.$p"
    rm -f "$tmp.$p"
done
