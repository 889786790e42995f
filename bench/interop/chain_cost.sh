#!/bin/bash
# What the interposition library's direct route costs a call with no module on, in this build and
# in BASE_BUILD side by side (each job alternating the builds, REPS jobs), and with another PMPI
# tool chained after it (the tests' pmpi_counter, preloaded after mpiguard's; this build only). A
# singleton MPI process (no launcher), chain_cost.c: MPI_Test on a null request and
# MPI_Barrier on MPI_COMM_SELF, the least ns/call over the rounds of each job; prints each job's
# figure and the medians over the jobs: the call's own ns and, per layer, ns added and the ratio (docs/cli.md, "Other tools and LD_PRELOAD").
# Usage: [REPS=5] [FLAVORS="openmpi mpich"] [CALLS=100000] [ROUNDS=51]
#        bench/interop/chain_cost.sh BUILD BASE_BUILD
set -u
build=${1:?usage: chain_cost.sh BUILD BASE_BUILD}
base=${2:?usage: chain_cost.sh BUILD BASE_BUILD}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
dir=$(mktemp -d /tmp/mg-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
for ((rep = 1; rep <= ${REPS:-5}; rep++)); do
    for flavor in ${FLAVORS:-openmpi mpich}; do
        [ -x "$dir/chain_cost_$flavor" ] ||
            mpicc.$flavor -O2 -o "$dir/chain_cost_$flavor" "$(dirname "$0")/chain_cost.c" || exit 1
        counter="$build/tests/interop/$flavor/libpmpi_counter.so"
        for layer in base this chained; do
            case $layer in
            base) preload=$base/lib/libmpiguard-$flavor.so ;;
            this) preload=$build/lib/libmpiguard-$flavor.so ;;
            chained) preload=$build/lib/libmpiguard-$flavor.so:$counter ;;
            esac
            env PMPI_COUNTER_DIR="$dir" LD_PRELOAD="$preload" \
                "$dir/chain_cost_$flavor" "${CALLS:-100000}" "${ROUNDS:-51}" 2>/dev/null |
                sed -nE "s/^chain_cost: (\w+) PMPI ([0-9.]+) ns, .* added (-?[0-9.]+) ns$/$flavor $layer \1 \2 \3/p" |
                tee -a "$dir/lines"
        done
    done
done
python3 - "$dir/lines" <<'PY'
import collections, statistics, sys
added, pmpi = collections.defaultdict(list), collections.defaultdict(list)
for line in open(sys.argv[1]):
    flavor, layer, call, plain, ns = line.split()
    added[(flavor, call, layer)].append(float(ns))
    pmpi[(flavor, call)].append(float(plain))
layers = ["base", "this", "chained"]
print("| MPI | call | PMPI ns | " + " | ".join(f"{l}: ns added (ratio)" for l in layers) + " |")
print("| --- | --- | --- | " + " | ".join("---" for _ in layers) + " |")
for flavor, call in dict.fromkeys(k[:2] for k in added):
    plain = statistics.median(pmpi[(flavor, call)])
    cells = [statistics.median(added[(flavor, call, l)]) for l in layers]
    print(f"| {flavor} | {call} | {plain:.2f} | " +
          " | ".join(f"{a:.2f} ({(plain + a) / plain:.3f})" for a in cells) + " |")
PY
