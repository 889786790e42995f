#!/bin/bash
# What run, protect and hang (shm) cost the three Debian applications, bounded from two measurements
# the machine's load barely disturbs (docs/apps.md "Overhead"), where the wall-time ratios of
# overhead.sh cannot resolve 1%:
#  (1) CPU ns each tool adds to one MPI call: bench/hang/call_cost.c, one rank, ROUNDS interleaved
#      rounds of plain / `mpiguard run` / `mpiguard protect` / `mpiguard hang --sampler shm`, for
#      four calls (MPI_Test on a null request, a blocking MPI_Sendrecv, MPI_Allgatherv and
#      MPI_Allreduce, the last two watched by the protect module), the calling thread's CPU time,
#      medians, and in brackets the fastest rounds (at a load of 30-60 on the 2 cores other work
#      still adds cache misses to a thread's CPU time, and only adds: the fastest round is the least
#      disturbed); the largest of the four is each tool's cost per call;
#  (2) each application's MPI calls per rank per second of CPU time in its short input at NP ranks
#      (`mpiguard run --no-protect` counts the calls; the plain run's CPU time, user + system of
#      every process, over NP): CPU time, not wall time, since a loaded machine stretches the wall
#      time and so would shrink the rate; a rank's CPU time is at most its wall time on an idle
#      machine, so the rate is, if anything, overstated.
# Their product bounds the slowdown the wrappers cause: 1 + calls/s x added ns. Not in it: what a
# tool does once per job (finding the ranks, its shared-memory segments, the report), which
# overhead.sh's short inputs do include.
#   bench/apps/cost_bound.sh [BUILD] [ROUNDS] [NP]
set -u
build=$(cd "${1:-build}" && pwd) rounds=${2:-5} np=${3:-4}
here=$(cd "$(dirname "$0")" && pwd)
iterations=${ITERATIONS:-2000000}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
. "$here/../../tests/apps/apps.sh"
work=$(mktemp -d /tmp/mg-cost-bound.XXXXXX)
trap 'rm -rf "$work"' EXIT
prog="$work/call_cost"
mpicc.openmpi -O2 -o "$prog" "$here/../hang/call_cost.c" || exit 1
mg="$build/bin/mpiguard"
tools=(plain run protect hang)
calls=(test sendrecv allgatherv allreduce)
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
declare -A added
for call in "${calls[@]}"; do
    row="| $call"
    for tool in "${tools[@]}"; do
        cell=""
        for stat in "${stats[@]}"; do
            plain=$(echo ${ns["plain|$call"]} | tr ' ' '\n' | $stat)
            m=$(echo ${ns["$tool|$call"]} | tr ' ' '\n' | $stat)
            cell+=$([ "$stat" = median ] && echo " $m" || echo " ($m)")
            d=$(echo "$m - $plain" | bc -l)
            key="$stat|$tool"
            if [ -z "${added[$key]:-}" ] || [ "$(echo "$d > ${added[$key]}" | bc -l)" = 1 ]; then
                added[$key]=$d
            fi
        done
        row+=" |$cell"
    done
    echo "$row |"
done
echo
echo "The applications' short inputs at $np ranks: MPI calls per rank per CPU second of a plain run,"
echo "and the slowdown bound 1 + calls/s x (the largest ns a tool adds to any of the calls above),"
echo "from the medians (from the fastest rounds):"
echo "| application | CPU s per rank | calls per rank | calls per rank per CPU s | run | protect | hang (shm) |"
echo "|---|---|---|---|---|---|---|"
for app in $APPS; do
    dir="$work/$app"
    app_prepare "$app" short "$dir"
    # `times` in the subshell: the CPU time of its children, the launcher and the ranks it waited for
    cpu=$(cd "$dir" && { mpirun.openmpi -n "$np" $(app_command "$app" short) >out.txt 2>&1; times; } |
        tail -1 | awk '{for (i = 1; i <= 2; i++) {split($i, t, "m"); s += t[1] * 60 + t[2]}} END {print s}')
    (cd "$dir" && "$mg" run -q --no-protect --report "$work/$app.json" -- \
        mpirun.openmpi -n "$np" $(app_command "$app" short) >out.txt 2>&1)
    python3 - "$work/$app.json" "$cpu" "$np" "$app" "${added[median|run]}" "${added[fastest|run]}" \
        "${added[median|protect]}" "${added[fastest|protect]}" "${added[median|hang]}" \
        "${added[fastest|hang]}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); cpu = float(sys.argv[2]) / int(sys.argv[3])
calls = [c for c in r["tool_data"]["mpi_calls"] if c is not None]
per_rank = sum(calls) / len(calls)
rate = per_rank / cpu
bound = lambda added: 1 + rate * max(float(added), 0) * 1e-9
bounds = " | ".join(f"{bound(m):.4f} ({bound(f):.4f})" for m, f in zip(sys.argv[5::2], sys.argv[6::2]))
print(f"| {sys.argv[4]} | {cpu:.2f} | {per_rank:.0f} | {rate:.0f} | {bounds} |")
PY
done
