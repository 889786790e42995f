#!/bin/bash
# What busy loops take from a job's ranks, by where the loops run (issue 29: "a node loaded to 10x
# its cores" must load the job). A plain NP-rank stencil (no mpiguard) is started with the flavour's
# launcher (LAUNCH_VIA=srun: srun, SLURM_CONF of a running cluster: tests/slurm), and over WINDOW s
# its ranks' /proc/PID/schedstat gives their CPU time (in cores) and their wait on the run queue
# (per rank, a share of the window: the CPU others took from them), beside the load average, for:
#   none     no loop added
#   apart    BUSY loops per core each in a session of its own (setsid), as other users' work is
#   script   BUSY loops per core in this script's session (held_under_load.sh before this script)
#   session  BUSY loops per core started inside the job, each rank its share (busy_in_session.sh)
# Each row also says the ranks' sessions and the kernel's autogroup setting.
#   bench/hang/load_share.sh [BUILD] [NP] [WINDOW] [BUSY] [FLAVOR]
set -u
build=${1:-build} np=${2:-4} window=${3:-20} busy=${4:-2} flavor=${5:-openmpi}
BUILD=$(cd "$build" && pwd)
export BUILD MPIGUARD="$BUILD/bin/mpiguard"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../tests/lib.sh"
launcher=$(launcher_for "$flavor")
app="$BUILD/examples/$flavor/stencil"
loops=()
job=""
trap 'kill "${loops[@]}" $(cat "$TMP/pids" 2>/dev/null) $job 2>/dev/null; rm -rf "$TMP"' EXIT

# schedstat PIDS...: the sums of their CPU ns and run-queue ns.
schedstat() {
    local pid cpu=0 wait=0 c w s
    for pid in "$@"; do
        read -r c w s <"/proc/$pid/schedstat" || continue
        cpu=$((cpu + c)) wait=$((wait + w))
    done
    echo "$cpu $wait"
}

echo "autogroup: /proc/sys/kernel/sched_autogroup_enabled = $(cat /proc/sys/kernel/sched_autogroup_enabled); $(nproc) cores; ${LAUNCH_VIA:-mpirun} $flavor, $np ranks, $busy loops per core, ${window} s windows"
echo "| loops | load1 | ranks' CPU, cores | ranks' run-queue wait, % of the window | ranks' sessions (this script's: $(ps -o sid= $$ | tr -d ' ')) |"
echo "|---|---|---|---|---|"
for placement in none apart script session; do
    : >"$TMP/pids"
    loops=()
    in_job=0
    for ((i = 0; i < busy * $(nproc); i++)); do
        case $placement in
            apart) setsid sh -c 'while :; do :; done' &
                loops+=($!) ;;
            script) (while :; do :; done) &
                loops+=($!) ;;
        esac
    done
    [ "$placement" != session ] || in_job=$((busy * $(nproc)))
    $launcher -n "$np" "$here/busy_in_session.sh" "$TMP/pids" "$in_job" "$np" "$app" --announce \
        --seconds $((window + 20)) >/dev/null 2>"$TMP/job.err" &
    job=$!
    pids=$(stencil_announced "$TMP/job.err" "$np" | awk '{ print $2 }')
    sleep 3
    read -r cpu0 wait0 < <(schedstat $pids)
    sleep "$window"
    read -r cpu1 wait1 < <(schedstat $pids)
    sessions=$(for p in $pids; do ps -o sid= "$p"; done | sort -u | tr -d ' ' | paste -sd,)
    awk -v p="$placement" -v l="$(cut -d' ' -f1 /proc/loadavg)" -v c=$((cpu1 - cpu0)) \
        -v w=$((wait1 - wait0)) -v n="$np" -v t="$window" -v s="$sessions" 'BEGIN {
        printf "| %s | %s | %.2f | %.1f | %s |\n", p, l, c / 1e9 / t, 100 * w / 1e9 / t / n, s }'
    kill "${loops[@]}" $(cat "$TMP/pids") 2>/dev/null
    wait $job 2>/dev/null
    job=""
done
