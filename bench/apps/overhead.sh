#!/bin/bash
# Overhead of each tool on the three Debian applications (docs/apps.md): for each application, REPS
# rounds of a plain run and one run under each tool (run, protect, hang with the shm sampler, check),
# side by side in one invocation, the order of the five rotated each round so that none always
# follows another; the inputs are the tests' short ones at NP ranks (tests/apps/apps.sh). Each ratio is
# median(tool) / median(plain) of the wall times of the whole command (launch included), and in
# brackets fastest(tool) / fastest(plain): on a shared machine other work only ever adds time, so
# the fastest runs are the least disturbed (neither is the true ratio; both together show the range).
#   bench/apps/overhead.sh [BUILD] [REPS] [NP]
# Prints the table; writes it with the date and the load averages to bench/apps/results/overhead.md,
# and every run's time and exit status to BUILD/bench/apps/runs.tsv (not kept in git). The "plain
# spread" column, (slowest - fastest) / median of the plain runs, says what the ratios can resolve.
set -u
build=$(cd "${1:-build}" && pwd) reps=${2:-5} np=${3:-4}
here=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
. "$here/../../tests/apps/apps.sh"
modes=(plain run protect hang check)
work=$(mktemp -d /tmp/mg-bench-apps.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$build/bench/apps" "$here/results"
runs="$build/bench/apps/runs.tsv"
printf 'app\tround\tmode\tseconds\tstatus\n' >"$runs"
declare -A times

# run_once APP MODE: one run in a fresh directory; prints its wall time in seconds.
run_once() {
    local app=$1 mode=$2 dir="$work/$1-$2" cmd start status
    rm -rf "$dir"
    app_prepare "$app" short "$dir"
    cmd=(mpirun.openmpi -n "$np" $(app_command "$app" short))
    case $mode in
        plain) ;;
        hang) cmd=("$build/bin/mpiguard" hang --sampler shm -q -- "${cmd[@]}") ;;
        *) cmd=("$build/bin/mpiguard" "$mode" -q -- "${cmd[@]}") ;;
    esac
    start=$(date +%s.%N)
    (cd "$dir" && "${cmd[@]}" >out.txt 2>err.txt)
    status=$?
    echo "$(date +%s.%N) - $start" | bc
    return $status
}

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
fastest() { tr ' ' '\n' | grep -v '^$' | sort -g | head -1; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg) started=$(date -u '+%Y-%m-%d %H:%M UTC')
for app in $APPS; do
    for ((r = 0; r < reps; r++)); do
        for ((m = 0; m < ${#modes[@]}; m++)); do
            mode=${modes[(m + r) % ${#modes[@]}]}
            t=$(run_once "$app" "$mode")
            status=$?
            [ $status -eq 0 ] || echo "warning: $app under $mode exited $status" >&2
            printf '%s\t%d\t%s\t%s\t%d\n' "$app" "$r" "$mode" "$t" "$status" >>"$runs"
            times["$app|$mode"]+="$t "
        done
    done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

{
    echo "bench/apps/overhead.sh $reps rounds, $np ranks, Open MPI; $started to $(date -u '+%H:%M UTC');"
    echo "load average $load_before at the start, $load_after at the end (2 cores, shared)."
    echo
    echo "| application | plain s | plain spread | run | protect | hang (shm) | check |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
    for app in $APPS; do
        plain=$(echo "${times["$app|plain"]}" | median)
        plain_fastest=$(echo "${times["$app|plain"]}" | fastest)
        plain_slowest=$(echo "${times["$app|plain"]}" | tr ' ' '\n' | sort -g | tail -1)
        printf '| %s | %.2f | %.2f' "$app" "$plain" "$(echo "($plain_slowest - $plain_fastest) / $plain" | bc -l)"
        for mode in run protect hang check; do
            printf ' | %.3f (%.3f)' "$(echo "$(echo "${times["$app|$mode"]}" | median) / $plain" | bc -l)" \
                "$(echo "$(echo "${times["$app|$mode"]}" | fastest) / $plain_fastest" | bc -l)"
        done
        echo " |"
    done
} | tee "$here/results/overhead.md"
