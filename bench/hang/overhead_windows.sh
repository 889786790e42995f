#!/bin/bash
# Overhead of `mpiguard hang` inside one long job (docs/hang-measurements.md, "Inside one job"): the job
# runs under `mpiguard run --no-protect` (the state module that the shm sampler reads, as a job
# started under mpiguard has it) and prints its iterations every 0.5 s (--tick). mpiguard hang is
# attached (--attach pid:LAUNCHER) for one window, then let go with SIGINT, in turn with each
# configuration (sampler, I pinned), a window with nothing attached ("none", the same moves without
# a monitor: the resolution of the figures) and an unwatched window between any two. A
# configuration's slowdown in one of its windows is the mean speed of the unwatched windows either
# side divided by its own speed; the figure is the median over the rounds with a 90% bootstrap
# interval. A window's speed counts from 1 s after mpiguard reports that it watches (the start-up,
# reading maps and symbol tables, is a fixed cost of an attach, reported beside: mpiguard's CPU in
# the window) to its SIGINT. What the state module costs in every MPI call is in call_cost.sh.
#   bench/hang/overhead_windows.sh [BUILD] [ROUNDS] [NP] [WINDOW_S] [EXAMPLE]
#   CONFIGS="none|shm 0.4|ptrace 0.4" ...  a subset of the configurations
set -u
build=${1:-build} rounds=${2:-5} np=${3:-2} window=${4:-15} example=${5:-stencil}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_mpi_yield_when_idle=1
IFS='|' read -r -a configs <<<"${CONFIGS:-none|shm 0.1|shm 0.4|ptrace 0.1|ptrace 0.4}"
work=$(mktemp -d /tmp/mg-hang-windows.XXXXXX)
job=
trap '[ -n "$job" ] && kill -INT $job 2>/dev/null; sleep 1; rm -rf "$work"' EXIT
now() { date +%s.%N; }

# The job: long enough for every window, stopped by the trap or at its end.
total=$(((rounds * ${#configs[@]} * 2 + 1) * (window + 8) + 60))
"$build/bin/mpiguard" run --no-protect -q -- mpirun.openmpi -n "$np" \
    "$build/examples/openmpi/$example" --seconds "$total" --tick 0.5 >"$work/ticks" 2>"$work/job.err" &
job=$!
launcher=
for _ in $(seq 1 300); do
    launcher=$(pgrep -P "$job" -x mpirun.openmpi || pgrep -P "$job" -f mpirun | head -1)
    [ -n "$launcher" ] && grep -q "tick" "$work/ticks" && break
    sleep 0.1
done
[ -n "$launcher" ] || { echo "overhead_windows: the job did not start" >&2; cat "$work/job.err" >&2; exit 1; }

# window NAME: a stretch of WINDOW_S seconds; its bounds go to windows.tsv.
unwatched() {
    local t0=$(now)
    sleep "$window"
    printf '%s\t%s\t%s\t%s\t-\n' "$1" "$2" "$t0" "$(now)" >>"$work/windows.tsv"
}
watched() {
    local config=$1 round=$2
    set -- $config
    if [ "$1" = none ]; then
        sleep 1
        unwatched "$config" "$round"
        return
    fi
    rm -f "$work/r.json" "$work/guard.err"
    "$build/bin/mpiguard" hang -v --attach "pid:$launcher" --on-hang report --sampler "$1" \
        --interval "$2" --max-interval "$2" --seed "$round" --report "$work/r.json" \
        >/dev/null 2>"$work/guard.err" &
    local guard=$!
    for _ in $(seq 1 300); do grep -q "watching" "$work/guard.err" && break; sleep 0.1; done
    sleep 1
    local t0=$(now)
    sleep "$window"
    local t1=$(now)
    kill -INT $guard
    wait $guard
    grep -q "ERROR HANG" "$work/guard.err" && echo "overhead_windows: a hang reported in a healthy job" >&2
    local cpu=$(python3 -c "
import json; c = json.load(open('$work/r.json'))['tool_data']['monitor_cost']
print('%g,%g,%g' % (c.get('frozen_fraction', 0), c.get('held_fraction', 0), c['monitor_cpu_fraction']))" \
        2>/dev/null)
    printf '%s\t%s\t%s\t%s\t%s\n' "$config" "$round" "$t0" "$t1" "${cpu:--}" >>"$work/windows.tsv"
}

n=0
for ((r = 0; r < rounds; r++)); do
    for ((i = 0; i < ${#configs[@]}; i++)); do
        unwatched unwatched "$r"
        # each round in another order, so that no configuration always follows the same one
        watched "${configs[(i + r) % ${#configs[@]}]}" "$r"
        n=$((n + 1))
        printf '\r%d/%d watched windows' "$n" $((rounds * ${#configs[@]})) >&2
    done
done
unwatched unwatched "$rounds"
echo >&2
kill -INT $job 2>/dev/null
wait $job 2>/dev/null
job=

python3 - "$work/ticks" "$work/windows.tsv" "$np" "$window" "$example" "${configs[@]}" <<'PY'
import bisect, random, statistics, sys
ticks = [(float(t), int(n)) for _, kind, t, n in (l.split() for l in open(sys.argv[1]))
         if kind == "tick"]
times = [t for t, _ in ticks]
windows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
np_, window, example, configs = sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:]

def speed(t0, t1):
    """Iterations per second between the first tick at or after t0 and the last at or before t1."""
    i, j = bisect.bisect_left(times, t0), bisect.bisect_right(times, t1) - 1
    if j <= i:
        return float("nan")
    return (ticks[j][1] - ticks[i][1]) / (ticks[j][0] - ticks[i][0])

rng = random.Random(1)
def interval(v):
    meds = sorted(statistics.median(rng.choices(v, k=len(v))) for _ in range(2000))
    return meds[int(0.05 * len(meds))], meds[int(0.95 * len(meds)) - 1]

slowdown, cost = {c: [] for c in configs}, {c: [] for c in configs}
for k, (config, _, t0, t1, c) in enumerate(windows):
    if config == "unwatched" or k == 0 or k + 1 >= len(windows):
        continue
    before, after = windows[k - 1], windows[k + 1]
    base = (speed(float(before[2]), float(before[3])) + speed(float(after[2]), float(after[3]))) / 2
    slowdown[config].append(base / speed(float(t0), float(t1)))
    if c != "-":
        cost[config].append([float(x) for x in c.split(",")])
unwatched = [speed(float(w[2]), float(w[3])) for w in windows if w[0] == "unwatched"]
print(f"{example}, {np_} ranks, windows of {window} s, {len(slowdown[configs[0]])} rounds; "
      f"unwatched speed {statistics.median(unwatched):.0f} iterations/s "
      f"({min(unwatched):.0f}-{max(unwatched):.0f})")
print()
print("| configuration | slowdown (90% interval) | frozen % | held % | mpiguard CPU, % of a core |")
print("|---|---|---|---|---|")
for c in configs:
    v = slowdown[c]
    lo, hi = interval(v)
    med = lambda i: f"{statistics.median(x[i] for x in cost[c]) * 100:.3f}" if cost[c] else "-"
    print(f"| {c.replace(' 0.', ' I=0.')} | {statistics.median(v):.4f} ({lo:.4f}-{hi:.4f}) | "
          f"{med(0)} | {med(1)} | {med(2)} |")
print()
print("per window: " + "; ".join(f"{c}: " + " ".join(f"{x:.4f}" for x in slowdown[c])
                                 for c in configs))
PY
