#!/bin/bash
# The shm sampler's cost to the application, from two measurements that the machine's load barely
# disturbs (docs/hang-measurements.md "Overhead"): (1) ns per wrapped MPI call, one rank, plain / with the
# interposition library and no module (the call counter only) / with the `state` module that the
# shm sampler reads, ROUNDS interleaved rounds, medians; (2) MPI calls per rank per second of the
# four examples at NP ranks (`mpiguard run --no-protect` counts them). Their product bounds the
# slowdown the state module causes: extra ns per call x calls per second. With BASE, the build of
# an earlier commit, its state module is timed too in the same rounds, side by side ("this change":
# what the later one adds). CALL=sendrecv times a blocking MPI_Sendrecv to itself instead of
# MPI_Test (call_cost.c), CALL=testany MPI_Testany (hpcc's poll); CALL_COST_ONLY=1 stops after the
# per-call figures.
#   bench/hang/call_cost.sh [BUILD] [ROUNDS] [NP] [FLAVOR] [BASE]
set -u
build=${1:-build} rounds=${2:-5} np=${3:-16} flavor=${4:-openmpi} base=${5:-}
call=${CALL:-test} iterations=${ITERATIONS:-20000000}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1
launcher=$([ "$flavor" = mpich ] && echo mpiexec.mpich || echo mpirun.openmpi)
lib="$build/lib/libmpiguard-$flavor.so"
token=callcost$$
work=$(mktemp -d /tmp/mg-call-cost.XXXXXX)
trap 'rm -rf "$work" /dev/shm/mpiguard-$token*' EXIT
prog="$work/call_cost"
mpicc.$flavor -O2 -o "$prog" "$(dirname "$0")/call_cost.c" || exit 1
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
for ((r = 0; r < rounds; r++)); do
    "$launcher" -n 1 "$prog" "$iterations" "$call" >>"$work/plain"
    LD_PRELOAD=$lib MPIGUARD_MODULES= "$launcher" -n 1 "$prog" "$iterations" "$call" >>"$work/counter"
    LD_PRELOAD=$lib MPIGUARD_MODULES=state MPIGUARD_STATE_WAITS=1 MPIGUARD_JOB_TOKEN=$token "$launcher" -n 1 "$prog" "$iterations" "$call" >>"$work/state"
    [ -z "$base" ] || LD_PRELOAD=$base/lib/libmpiguard-$flavor.so MPIGUARD_MODULES=state MPIGUARD_STATE_WAITS=1 MPIGUARD_JOB_TOKEN=$token "$launcher" -n 1 "$prog" "$iterations" "$call" >>"$work/base"
    rm -f /dev/shm/mpiguard-$token*
done
plain=$(median <"$work/plain") counter=$(median <"$work/counter") state=$(median <"$work/state")
declare -A label=([test]="MPI_Test(MPI_REQUEST_NULL)" [testany]="MPI_Testany(1, MPI_REQUEST_NULL)"
    [sendrecv]="MPI_Sendrecv to itself")
echo "${label[$call]:-MPI_$call}, $flavor, 1 rank, median of $rounds rounds, CPU ns per call (the calling thread's):"
echo "| plain | library, no module | library, state module | added by the library | added by state |"
echo "|---|---|---|---|---|"
printf '| %.2f | %.2f | %.2f | %.2f | %.2f |\n' "$plain" "$counter" "$state" \
    "$(echo "$counter - $plain" | bc -l)" "$(echo "$state - $counter" | bc -l)"
if [ -n "$base" ]; then
    before=$(median <"$work/base")
    echo "state module of $base: $before ns per call; this change adds $(echo "$state - $before" | bc -l) ns"
fi
echo
[ -z "${CALL_COST_ONLY:-}" ] || exit 0
declare -A iterations=([stencil]=3000 [cg]=150 [fft]=300 [master_worker]=4000)
echo "The examples at $np ranks ($flavor, the iterations of bench/hang/overhead.sh), calls per rank per second"
echo "and the slowdown bound (state module + counter) = calls/s x added ns:"
echo "| example | wall s | calls per rank per s | slowdown bound |"
echo "|---|---|---|---|"
added=$(echo "$state - $plain" | bc -l)
for example in stencil cg fft master_worker; do
    start=$(date +%s.%N)
    "$build/bin/mpiguard" run -q --no-protect --report "$work/r.json" -- "$launcher" -n "$np" \
        "$build/examples/$flavor/$example" --iterations "${iterations[$example]}" >/dev/null 2>&1
    wall=$(echo "$(date +%s.%N) - $start" | bc -l)
    python3 - "$work/r.json" "$wall" "$added" "$example" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); wall, added = float(sys.argv[2]), float(sys.argv[3])
calls = [c for c in r["tool_data"]["mpi_calls"] if c is not None]
rate = sum(calls) / len(calls) / wall
print(f"| {sys.argv[4]} | {wall:.2f} | {rate:.0f} | {1 + rate * max(added, 0) * 1e-9:.5f} |")
PY
done
