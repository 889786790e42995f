#!/bin/bash
# What run, protect and hang (shm) cost the three Debian applications, bounded from two measurements
# the machine's load barely disturbs (docs/apps.md "Overhead"), where the wall-time ratios of
# overhead.sh cannot resolve 1%:
#  (1) CPU ns each tool adds to one MPI call: bench/hang/call_cost.c, one rank, ROUNDS interleaved
#      rounds of plain / `mpiguard run` / `mpiguard protect` / `mpiguard hang --sampler shm`, for
#      five calls (MPI_Test and MPI_Testany on a null request, a blocking MPI_Sendrecv,
#      MPI_Allgatherv and MPI_Allreduce, the last two watched by the protect module), the calling
#      thread's CPU time, medians, and in brackets the fastest rounds (at a load of 30-60 on the 2
#      cores other work still adds cache misses to a thread's CPU time, and only adds: the fastest
#      round is the least disturbed);
#  (2) each application's calls per rank of each MPI function in its short input at NP ranks
#      (bench/apps/call_mix.c preloaded into a plain run; for Open MPI's Fortran bindings, which it
#      cannot see, `mpiguard run --no-protect` counts the calls), over the plain run's CPU time per rank
#      (user + system of every process, over NP): CPU time, not wall time, since a loaded machine
#      stretches the wall time and so would shrink the rate; a rank's CPU time is at most its wall
#      time on an idle machine, so the rate is, if anything, overstated.
# Their product bounds the slowdown the wrappers cause: 1 + the sum over the functions of calls/s x
# the ns the tool adds to that function, charging a function not timed in (1) the largest of the
# five. Not in it: what a tool does once per job (finding the ranks, its shared-memory segments,
# the report), which overhead.sh's short inputs do include.
#   bench/apps/cost_bound.sh [BUILD] [ROUNDS] [NP]
set -u
build=$(cd "${1:-build}" && pwd) rounds=${2:-5} np=${3:-4}
here=$(cd "$(dirname "$0")" && pwd)
iterations=${ITERATIONS:-2000000}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
. "$here/../../tests/apps/apps.sh"
work=$(mktemp -d /tmp/mg-cost-bound.XXXXXX)
trap 'rm -rf "$work"' EXIT
prog="$work/call_cost" mix="$work/call_mix.so"
mpicc.openmpi -O2 -o "$prog" "$here/../hang/call_cost.c" || exit 1
mpicc.openmpi -O2 -shared -fPIC -I"$here/../../src/wire" -o "$mix" "$here/call_mix.c" || exit 1
mg="$build/bin/mpiguard"
tools=(plain run protect hang)
calls=(test testany sendrecv allgatherv allreduce)
# The MPI function each timed call stands for in an application's mix.
declare -A function_of=([test]=Test [testany]=Testany [sendrecv]=Sendrecv [allgatherv]=Allgatherv
    [allreduce]=Allreduce)
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
fastest() { sort -g | head -1; }
stats=(median fastest)

# one_call TOOL CALL: CPU ns per call of one rank under TOOL.
one_call() {
    local cmd=(mpirun.openmpi -n 1 "$prog" "$iterations" "$2")
    case $1 in
        plain) "${cmd[@]}" ;;
        hang) "$mg" hang --sampler shm -q -- "${cmd[@]}" ;;
        *) "$mg" "$1" -q -- "${cmd[@]}" ;;
    esac 2>/dev/null | tail -1
}

started=$(date -u '+%Y-%m-%d %H:%M UTC') load_before=$(cut -d' ' -f1-3 /proc/loadavg)
declare -A ns
for ((r = 0; r < rounds; r++)); do
    for call in "${calls[@]}"; do
        for ((t = 0; t < ${#tools[@]}; t++)); do
            tool=${tools[(t + r) % ${#tools[@]}]}
            ns["$tool|$call"]+="$(one_call "$tool" "$call") "
        done
    done
done
echo "CPU ns per call, one rank, Open MPI, median (fastest) of $rounds rounds ($started, load $load_before):"
echo "| call | plain | run | protect | hang (shm) |"
echo "|---|---|---|---|---|"
declare -A added # stat|tool|call: ns added
for call in "${calls[@]}"; do
    row="| $call"
    for tool in "${tools[@]}"; do
        cell=""
        for stat in "${stats[@]}"; do
            plain=$(echo ${ns["plain|$call"]} | tr ' ' '\n' | $stat)
            m=$(echo ${ns["$tool|$call"]} | tr ' ' '\n' | $stat)
            cell+=$([ "$stat" = median ] && echo " $m" || echo " ($m)")
            added["$stat|$tool|$call"]=$(echo "$m - $plain" | bc -l)
        done
        row+=" |$cell"
    done
    echo "$row |"
done
# The added ns as JSON for the bound: {"median": {"run": {"Test": ns, ...}, ...}, "fastest": ...}.
added_json=$(for key in "${!added[@]}"; do
    IFS='|' read -r stat tool call <<<"$key"
    echo "$stat $tool ${function_of[$call]} ${added[$key]}"
done | python3 -c '
import json, sys
d = {}
for stat, tool, fn, ns in (line.split() for line in sys.stdin):
    d.setdefault(stat, {}).setdefault(tool, {})[fn] = float(ns)
print(json.dumps(d))')
echo
echo "The applications' short inputs at $np ranks: MPI calls per rank per CPU second of a plain run,"
echo "the most frequent functions (share of the calls), and the slowdown bound 1 + the sum over the"
echo "functions of calls/s x the ns the tool adds to that function (the largest of the timed calls"
echo "for a function not timed), from the medians (from the fastest rounds):"
echo "| application | CPU s per rank | calls per rank | calls per rank per CPU s | most frequent | run | protect | hang (shm) |"
echo "|---|---|---|---|---|---|---|---|"
for app in $APPS; do
    dir="$work/$app"
    app_prepare "$app" short "$dir"
    mkdir -p "$dir/mix"
    # `times` in the subshell: the CPU time of its children, the launcher and the ranks it waited for
    cpu=$(cd "$dir" && { mpirun.openmpi -n "$np" $(app_command "$app" short) >out.txt 2>&1; times; } |
        tail -1 | awk '{for (i = 1; i <= 2; i++) {split($i, t, "m"); s += t[1] * 60 + t[2]}} END {print s}')
    (cd "$dir" && mpirun.openmpi -x LD_PRELOAD="$mix" -x CALL_MIX_DIR="$dir/mix" -n "$np" \
        $(app_command "$app" short) >out.txt 2>&1)
    # Open MPI's Fortran bindings call PMPI_* themselves, past call_mix's wrappers (pw.x): such a
    # rank's calls are counted by `mpiguard run`, which wraps those bindings, all under one name
    # that no timed call stands for, so each is charged the largest.
    if ! ls "$dir/mix"/rank.* >/dev/null 2>&1; then
        (cd "$dir" && "$mg" run -q --no-protect --report "$work/$app.json" -- \
            mpirun.openmpi -n "$np" $(app_command "$app" short) >out.txt 2>&1)
        python3 - "$work/$app.json" "$dir/mix" <<'PY'
import json, sys
for rank, n in enumerate(json.load(open(sys.argv[1]))["tool_data"]["mpi_calls"]):
    if n is not None:
        open(f"{sys.argv[2]}/rank.{rank}", "w").write(f"Fortran-bindings {n}\n")
PY
    fi
    python3 - "$dir/mix" "$cpu" "$np" "$app" "$added_json" <<'PY'
import glob, json, sys
mix_dir, cpu, np, app, added = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4], json.loads(sys.argv[5])
ranks = glob.glob(f"{mix_dir}/rank.*")
if len(ranks) != np:
    sys.exit(f"{app}: call counts of {len(ranks)} of {np} ranks")
calls = {}
for path in ranks:
    for name, n in (line.split() for line in open(path)):
        calls[name] = calls.get(name, 0) + int(n) / np
cpu /= np
total = sum(calls.values())
top = ", ".join(f"{name} {n / total:.0%}" for name, n in sorted(calls.items(), key=lambda c: -c[1])[:3])
def bound(per_fn):
    worst = max(max(per_fn.values()), 0)
    return 1 + sum(n * max(per_fn.get(name, worst), 0) for name, n in calls.items()) / cpu * 1e-9
bounds = " | ".join(f"{bound(added['median'][t]):.4f} ({bound(added['fastest'][t]):.4f})" for t in ("run", "protect", "hang"))
print(f"| {app} | {cpu:.2f} | {total:.0f} | {total / cpu:.0f} | {top} | {bounds} |")
PY
done
