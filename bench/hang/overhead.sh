#!/bin/bash
# Overhead of `mpiguard hang` (docs/hang-measurements.md): the examples do a fixed amount of work (--iterations)
# at NP ranks (Open MPI) with and without the monitor, with I pinned to 100 and 400 ms, both
# samplers, and the plain job a second time ("plain again": what two unmonitored runs differ by,
# the resolution of the figures). Configurations are interleaved, REPS rounds. Each ratio is the
# median over the rounds of (monitored / plain of the same round), with a 90% bootstrap interval
# over the rounds, all measured in this one run. A second table gives, per monitored configuration,
# the cost that mpiguard measures itself (report tool_data.monitor_cost, medians over the rounds):
# the share of the watched time that ptrace samples kept ranks frozen (unwinding) and held (from
# the first seize, which includes waiting for a descheduled rank to stop), and mpiguard's own CPU
# as a share of one core.
#   bench/hang/overhead.sh [BUILD] [REPS] [NP] [SCALE]     SCALE multiplies the iteration counts
#   EXAMPLES="stencil cg" bench/hang/overhead.sh ...        a subset of the four examples
#   CONFIGS="plain|plain again|ptrace 0.4" ...              a subset of the configurations,
#                                                           the two plain ones first
set -u
build=${1:-build} reps=${2:-3} np=${3:-16} scale=${4:-1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# Ranks share 2 cores here: a waiting rank yields its core (as bench/hang/real_runs.sh).
export OMPI_MCA_mpi_yield_when_idle=1
declare -A iterations=([stencil]=3000 [cg]=150 [fft]=300 [master_worker]=4000)
IFS='|' read -r -a configs <<<"${CONFIGS:-plain|plain again|shm 0.1|shm 0.4|ptrace 0.1|ptrace 0.4}"
examples=${EXAMPLES:-stencil cg fft master_worker}
declare -A costs
work=$(mktemp -d /tmp/mg-hang-overhead.XXXXXX)
trap 'rm -rf "$work"' EXIT

run_once() {
    local example=$1 config=$2 app="$build/examples/openmpi/$1"
    local cmd=(mpirun.openmpi -n "$np" "$app" --iterations "$((iterations[$example] * scale))")
    set -- $config
    if [ "$1" != plain ]; then
        cmd=("$build/bin/mpiguard" hang -q --on-hang report --sampler "$1" --interval "$2" --max-interval "$2" --seed 1 --report "$work/r.json" -- "${cmd[@]}")
    fi
    rm -f "$work/r.json"
    local start=$(date +%s.%N)
    "${cmd[@]}" >/dev/null 2>&1 || echo "warning: $example ($config) failed" >&2
    echo "$(date +%s.%N) - $start" | bc >"$work/wall"
    if [ -s "$work/r.json" ]; then
        costs["$example|$config"]+=$(python3 -c "
import json; c = json.load(open('$work/r.json'))['tool_data']['monitor_cost']
print('%g,%g,%g' % (c.get('frozen_fraction', 0), c.get('held_fraction', 0), c['monitor_cpu_fraction']))")" "
    fi
}

for example in $examples; do
    for ((r = 0; r < reps; r++)); do
        # each round in another order, so that no configuration always follows the same one
        for ((i = 0; i < ${#configs[@]}; i++)); do
            config=${configs[(i + r) % ${#configs[@]}]}
            run_once "$example" "$config"
            echo "$example	$config	$r	$(cat "$work/wall")" >>"$work/walls.tsv"
        done
    done
done

python3 - "$work/walls.tsv" "$np" "$reps" "${configs[@]}" <<'PY'
import random, statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
np_, reps, configs = sys.argv[2], int(sys.argv[3]), sys.argv[4:]
wall = {(e, c, int(r)): float(t) for e, c, r, t in rows}
examples = list(dict.fromkeys(e for e, _, _, _ in rows))
rng = random.Random(1)
def interval(ratios):
    meds = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(2000))
    return meds[int(0.05 * len(meds))], meds[int(0.95 * len(meds)) - 1]
print("| example (%s ranks, %d rounds) | plain s | %s |" % (np_, reps, " | ".join(
    c.replace(" 0.", " I=0.") for c in configs[1:])))
print("|---" * (len(configs) + 1) + "|")
for e in examples:
    plain = [wall[(e, "plain", r)] for r in range(reps)]
    cells = []
    for c in configs[1:]:
        ratios = [wall[(e, c, r)] / wall[(e, "plain", r)] for r in range(reps)]
        lo, hi = interval(ratios)
        cells.append("%.3f (%.3f-%.3f)" % (statistics.median(ratios), lo, hi))
    print("| %s | %.2f | %s |" % (e, statistics.median(plain), " | ".join(cells)))
PY

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
# Column k (1 frozen, 2 held, 3 cpu) of the cost triples, median, in percent.
cost_median() { tr ' ' '\n' | grep -v '^$' | cut -d, -f"$1" | median | awk '{printf "%.3f", 100 * $1}'; }
printf '\n| example: measured cost, %% (frozen / held / mpiguard CPU) |'
for config in "${configs[@]:2}"; do printf ' %s |' "${config/ / I=}"; done
printf '\n|---|'
for config in "${configs[@]:2}"; do printf -- '---|'; done
printf '\n'
for example in $examples; do
    printf '| %s |' "$example"
    for config in "${configs[@]:2}"; do
        c=${costs["$example|$config"]:-}
        printf ' %s / %s / %s |' "$(echo "$c" | cost_median 1)" "$(echo "$c" | cost_median 2)" \
            "$(echo "$c" | cost_median 3)"
    done
    printf '\n'
done
