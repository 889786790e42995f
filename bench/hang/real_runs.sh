#!/bin/bash
# Accuracy of `mpiguard hang` on real jobs (docs/hang-measurements.md): faulty runs (fault kind, rank and time
# drawn at random) and correct runs of at least a minute, on the four examples, both samplers, Open MPI
# at 16-64 ranks and MPICH at 8-16. Every run's observation trace is also replayed through the
# timeout baseline (hang_replay). Results are appended to a TSV, so the script runs in parts:
#   bench/hang/real_runs.sh [BUILD] [FAULTY CORRECT] [PARALLEL] [SEED] [TSV]
# OPENMPI_NP and MPICH_NP (environment) list the rank counts drawn from (default "16 32 64", "8 16");
# SAMPLERS the samplers (default "shm ptrace").
# then bench/hang/summarize.py TSV prints the figures. fault_delay: seconds from the moment the
# faulty rank fired its fault (it prints it) to mpiguard's detection, launch excluded; fault_fired: that
# moment ("-": the fault never fired, e.g. a master-worker worker that got no task after its fault
# time: that run is a correct one); load1: the load average when the run ended.
set -u
build=${1:-build} faulty=${2:-50} correct=${3:-50} parallel=${4:-2} seed=${5:-1}
tsv=${6:-bench/hang/real_runs.tsv}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# Many ranks share 2 cores here: a waiting rank yields its core, as it would not need to on a node with
# a core per rank (the tests run with the same setting).
export OMPI_MCA_mpi_yield_when_idle=1
work=$(mktemp -d /tmp/mg-hang-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
examples=(stencil cg fft master_worker)
faults=(compute-loop sleep stop deadlock)
samplers=(${SAMPLERS:-shm ptrace})
RANDOM=$seed
[ -s "$tsv" ] || printf 'run\ttype\tmpi\texample\tnp\tsampler\tfault\tfault_rank\tfault_at\tseconds\texit\tfound\thang_type\tfaulty_ranks\tdetected_at\ttimeout_0.4_5\ttimeout_0.4_10\ttimeout_0.8_5\ttimeout_0.8_10\tbuilt_at\tfault_delay\tfault_fired\tload1\n' >"$tsv"

one_run() {
    local id=$1 type=$2 mpi=$3 example=$4 np=$5 sampler=$6 fault=$7 rank=$8 at=$9 seconds=${10}
    local dir="$work/$id" launcher
    mkdir -p "$dir"
    launcher=$([ "$mpi" = mpich ] && echo mpiexec.mpich || echo mpirun.openmpi)
    local args=(--seconds "$seconds")
    [ "$type" = faulty ] && args+=(--fault "$fault" --fault-rank "$rank" --fault-at "$at")
    # A faulty run not detected within 240 s of its planned end counts as missed.
    timeout -s INT $((seconds + 240)) "$build/bin/mpiguard" hang -v --sampler "$sampler" --seed "$id" \
        --report "$dir/r.json" --trace "$dir/trace" -- "$launcher" -n "$np" \
        "$build/examples/$mpi/$example" "${args[@]}" >"$dir/out" 2>"$dir/err"
    local status=$?
    local found=$(python3 -c "
import json,sys
try:
    r=json.load(open('$dir/r.json')); f=[x for x in r['findings'] if x['kind']=='hang']
except Exception: f=[]
if f:
    e=f[0]['evidence']; print('1', e['hang_type'], ','.join(map(str,e['faulty_ranks'])) or '-', '%.2f' % e['detection_time_s'], '%.3f' % e['detected_at_unix'])
else: print('0 - - - -')")
    local replay=$("$build/bench/hang_replay" "$dir/trace" "$np" 2>/dev/null | awk '{print $4}' | paste -sd'\t')
    [ -n "$replay" ] || replay=$'none\tnone\tnone\tnone'
    local built=$(awk '$1 == "#" && $2 == "built" {print $3}' "$dir/trace" 2>/dev/null)
    local fired=$(sed -n 's/^[a-z_]*: fault [a-z-]* fires in rank [0-9]* at \([0-9.]*\)$/\1/p' "$dir/err" | head -1)
    set -- $found
    # Both moments on the wall clock: the report's detection time counts from when watching began,
    # after the launch and the ranks' discovery (adding it to the script's start, as the batches
    # before 2026-11-26 did, left that discovery time out of every delay).
    local fault_delay=$(awk -v d="$5" -v f="$fired" \
        'BEGIN { if (f == "" || d == "-") print "-"; else printf "%.2f", d - f }')
    # The machine's load when the run ended: the delays depend on it.
    local load1=$(cut -d' ' -f1 /proc/loadavg)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" \
        "$type" "$mpi" "$example" "$np" "$sampler" "$fault" "$rank" "$at" "$seconds" "$status" "$1" "$2" \
        "$3" "$4" "$replay" "${built:-never}" "$fault_delay" "${fired:--}" "$load1" |
        flock "$tsv" tee -a "$tsv" >/dev/null
    # Every run's stderr is kept beside the TSV (mpiguard's -v lines: verification, the report).
    mkdir -p "${tsv%.tsv}.logs" && cp "$dir/err" "${tsv%.tsv}.logs/run-$id.err"
    rm -rf "$dir"
}

start_id=$(($(wc -l <"$tsv") + 1000 * seed))
n=0
for ((i = 0; i < faulty + correct; i++)); do
    type=$([ $i -lt "$faulty" ] && echo faulty || echo correct)
    example=${examples[RANDOM % 4]}
    if [ $((RANDOM % 4)) -eq 0 ]; then
        mpi=mpich list=(${MPICH_NP:-8 16})
    else
        mpi=openmpi list=(${OPENMPI_NP:-16 32 64})
    fi
    np=${list[RANDOM % ${#list[@]}]}
    sampler=${samplers[RANDOM % ${#samplers[@]}]}
    fault=${faults[RANDOM % 4]}
    rank=$((RANDOM % np))
    at=$((15 + RANDOM % 31))
    # A faulty run would end 5 s after its fault: from then on nothing can finish it (a master-worker
    # job with a faulty worker legitimately goes on with its other workers until its time is up).
    seconds=$([ "$type" = faulty ] && echo $((at + 5)) || echo $((60 + RANDOM % 16)))
    one_run $((start_id + i)) "$type" "$mpi" "$example" "$np" "$sampler" "$fault" "$rank" "$at" "$seconds" &
    n=$((n + 1))
    if [ "$n" -ge "$parallel" ]; then wait -n; n=$((n - 1)); fi
    printf '\r%d/%d runs started' $((i + 1)) $((faulty + correct)) >&2
done
wait
echo >&2
