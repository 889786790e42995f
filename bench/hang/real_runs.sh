#!/bin/bash
# Accuracy of `mpiguard hang` on real jobs (docs/hang-measurements.md "Real runs"; issue 29's
# Targets): faulty runs (fault kind, rank and time drawn at random) and correct runs of at least a
# minute, on the four examples (both MPIs) and the Debian applications (Open MPI; tests/apps), both
# samplers. Faults, most of them injected from outside the program as a user's job meets them
# (tests/lib.sh: inject_fault):
#   stop-in, stop-out    the rank SIGSTOPped inside an MPI call, or between two
#   spin-in, spin-out    the rank made to spin for good in a signal handler there
#                        (tests/apps/libspin_on_signal.so, preloaded)
#   kill9                the rank killed with SIGKILL
#   compute-loop         the example's own endless loop outside MPI (examples only)
#   deadlock-start       the example's rank receives what is never sent at its first iteration,
#                        a hang from the first call (examples only)
# The external faults come FAULT_AT s after every rank was found, once the model has learnt the job.
# Every run's observation trace is also replayed through the timeout baseline (hang_replay).
# Results are appended to a TSV, so the script runs in parts:
#   bench/hang/real_runs.sh [BUILD] [FAULTY CORRECT] [PARALLEL] [SEED] [TSV]
# OPENMPI_NP and MPICH_NP (environment) list the rank counts drawn from (default "4 8" each);
# SAMPLERS the samplers (default "shm ptrace"); EXAMPLES and FAULTS the examples and their faults
# (default all); APPS the applications (default "lammps hpcc qe", "" for none), drawn for one run
# in APP_SHARE (default 5). PLAN_ONLY=1 prints the runs a seed draws (id, type, MPI, program,
# ranks, sampler, fault, rank, fault time, seconds) and runs nothing.
# then bench/hang/summarize.py TSV prints the figures. Columns: fault_delay: seconds from the
# fault (the moment the injector caught the rank, killed it, or the example printed it fired) to
# mpiguard's detection; fault_fired: that moment ("-": the fault never fired, e.g. a master-worker
# worker that got no task after its fault time, or a rank never caught where it was to be: that
# run is a correct one); named: the ranks the report blames (the culprit, else the faulty ranks);
# decided_by: the model or the first-call rule; load1: the load average when the run ended.
# Beside the TSV, in TSV's name with .logs (not in git): every run's stderr (run-ID.err), and the
# whole directory of every miss (miss-ID: summarize.py's misses and false alarms).
set -u
build=${1:-build} faulty=${2:-80} correct=${3:-30} parallel=${4:-4} seed=${5:-1}
tsv=${6:-bench/hang/results/real_runs.tsv}
BUILD=$(cd "$build" && pwd)
export MPIGUARD="$BUILD/bin/mpiguard" BUILD
# a rank not caught where its fault wants it within a minute is no run (summarize.py says which)
export CATCH_SECONDS=${CATCH_SECONDS:-60}
# before apps.sh, which sets APPS to every application
apps=(${APPS-lammps hpcc qe})
. "$(dirname "$0")/../../tests/lib.sh"
. "$(dirname "$0")/../../tests/apps/apps.sh"
examples=(${EXAMPLES:-stencil cg fft master_worker})
example_faults=(${FAULTS:-stop-in stop-out spin-in spin-out kill9 compute-loop deadlock-start})
app_faults=(stop-in stop-out spin-in spin-out kill9)
samplers=(${SAMPLERS:-shm ptrace})
RANDOM=$seed
[ -n "${PLAN_ONLY:-}" ] || [ -s "$tsv" ] || printf 'run\ttype\tmpi\tprogram\tnp\tsampler\tfault\tfault_rank\tfault_at\tseconds\texit\tfound\thang_type\tfaulty_ranks\tnamed\tdecided_by\tdetected_at\ttimeout_0.4_5\ttimeout_0.4_10\ttimeout_0.8_5\ttimeout_0.8_10\tbuilt_at\tfault_delay\tfault_fired\tload1\n' >"$tsv"

# The fault's moment on the wall clock, once every rank is found and FAULT_AT s have passed: the
# rank caught where the fault wants it and stopped or made to spin, or killed. Prints nothing when
# the job ended first or the rank was never caught.
inject_external() {
    local dir=$1 guard=$2 np=$3 fault=$4 rank=$5 at=$6 token="" pid=""
    for _ in $(seq 1 600); do
        [ -n "$token" ] || token=$(grep -o 'MPIGUARD_JOB_TOKEN[= ][0-9a-f]*' "$dir/err" | head -1 | cut -c20-)
        [ -z "$token" ] || [ "$(token_processes "$token" | wc -l)" -lt "$np" ] || ! pid=$(rank_pid "$token" "$rank") || break
        kill -0 "$guard" 2>/dev/null || return
        sleep 0.2
    done
    [ -n "$pid" ] || return
    sleep "$at"
    kill -0 "$guard" 2>/dev/null || return
    if [ "$fault" = kill9 ]; then
        kill -KILL "$pid"
    else
        inject_fault "$token" "$np" "$rank" "$pid" "$fault" >"$dir/catch" || return
    fi
    date +%s.%N
}

one_run() {
    local id=$1 type=$2 mpi=$3 program=$4 np=$5 sampler=$6 fault=$7 rank=$8 at=$9 seconds=${10}
    local dir="$TMP/$id" launcher run=() limit
    mkdir -p "$dir/run"
    launcher=$(launcher_for "$mpi")
    if [ -x "$BUILD/examples/$mpi/$program" ]; then
        run=("$BUILD/examples/$mpi/$program" --seconds "$seconds")
        case $type-$fault in
        faulty-compute-loop) run+=(--fault compute-loop --fault-rank "$rank" --fault-at "$at") ;;
        faulty-deadlock-start) run+=(--fault deadlock --fault-rank "$rank" --fault-at 0) ;;
        esac
    else
        # an application's long run lasts the run's seconds (LAMMPS and pw.x stop themselves)
        local APPS_LONG_SECONDS=$seconds
        app_prepare "$program" long "$dir/run" || return
        run=($(app_command "$program" long))
    fi
    local preload=""
    [ "$type" = correct ] || [ "${fault%-*}" != spin ] || preload="$BUILD/tests/apps/libspin_on_signal.so"
    # A run not ended within 240 s of its planned end (of its fault, for a faulty one) counts as
    # missed.
    limit=$([ "$type" = faulty ] && echo $((at + 240)) || echo $((seconds + 240)))
    (cd "$dir/run" && exec env ${preload:+LD_PRELOAD=$preload} timeout -s INT "$limit" "$MPIGUARD" hang -v --sampler "$sampler" \
        --seed "$id" --report "$dir/r.json" --trace "$dir/trace" -- $launcher -n "$np" "${run[@]}") \
        >"$dir/out" 2>"$dir/err" &
    local guard=$! fired=""
    case $type-$fault in
    faulty-stop-* | faulty-spin-* | faulty-kill9)
        fired=$(inject_external "$dir" $guard "$np" "$fault" "$rank" "$at")
        # a rank never caught where the fault wants it: no fault, and nothing to wait for
        [ -n "$fired" ] || kill -INT $guard 2>/dev/null ;;
    esac
    wait $guard
    local status=$?
    [ "$type-$fault" != faulty-compute-loop ] && [ "$type-$fault" != faulty-deadlock-start ] ||
        fired=$(sed -n 's/^[a-z_]*: fault [a-z-]* fires in rank [0-9]* at \([0-9.]*\)$/\1/p' "$dir/err" | head -1)
    local found=$(python3 - "$dir/r.json" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1])); f = [x for x in r["findings"] if x["kind"] == "hang"]
except Exception:
    f = []
if f:
    e = f[0]["evidence"]
    faulty = ",".join(map(str, e.get("faulty_ranks", []))) or "-"
    named = ",".join(map(str, e["culprit"]["ranks"])) if e.get("culprit") else faulty
    print("1", e["hang_type"], faulty, named, e.get("model", {}).get("decided_by", "-").replace(" ", "-"),
          "%.3f" % e["detected_at_unix"])
else:
    print("0 - - - - -")
PY
)
    local replay=$("$BUILD/bench/hang_replay" "$dir/trace" "$np" 2>/dev/null | awk '{print $4}' | paste -sd'\t')
    [ -n "$replay" ] || replay=$'none\tnone\tnone\tnone'
    local built=$(awk '$1 == "#" && $2 == "built" {print $3}' "$dir/trace" 2>/dev/null)
    set -- $found
    local fault_delay=$(awk -v d="$6" -v f="$fired" \
        'BEGIN { if (f == "" || d == "-") print "-"; else printf "%.2f", d - f }')
    local load1=$(cut -d' ' -f1 /proc/loadavg)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
        "$id" "$type" "$mpi" "$program" "$np" "$sampler" "$fault" "$rank" "$at" "$seconds" "$status" \
        "$1" "$2" "$3" "$4" "$5" "$6" "$replay" "${built:-never}" "$fault_delay" "${fired:--}" "$load1" |
        flock "$tsv" tee -a "$tsv" >/dev/null
    # Every run's stderr is kept beside the TSV (mpiguard's -v lines: verification, the report);
    # a miss's whole directory too (report, trace, the job's output and files), to be read.
    mkdir -p "${tsv%.tsv}.logs" && cat "$dir/err" "$dir/catch" >"${tsv%.tsv}.logs/run-$id.err" 2>/dev/null
    if python3 "$(dirname "$0")/summarize.py" --miss "$tsv" "$id"; then
        rm -rf "${tsv%.tsv}.logs/miss-$id" && mv "$dir" "${tsv%.tsv}.logs/miss-$id"
    else
        rm -rf "$dir"
    fi
}

start_id=$(($(cat "$tsv" 2>/dev/null | wc -l) + 1000 * seed))
n=0
for ((i = 0; i < faulty + correct; i++)); do
    type=$([ $i -lt "$faulty" ] && echo faulty || echo correct)
    if [ ${#apps[@]} -gt 0 ] && [ $((RANDOM % ${APP_SHARE:-5})) -eq 0 ]; then
        # hpcc cannot stop itself after a given time: its correct run solves a fixed set of
        # problems, within the limit its seconds give it (below)
        program=${apps[RANDOM % ${#apps[@]}]}
        mpi=openmpi np=4 fault=${app_faults[RANDOM % ${#app_faults[@]}]}
    else
        program=${examples[RANDOM % ${#examples[@]}]}
        # drawn in this shell: a $( ) subshell reseeds RANDOM, and the seed would not give the MPI
        [ $((RANDOM % 2)) -eq 0 ] && mpi=mpich || mpi=openmpi
        [ $mpi = mpich ] && list=(${MPICH_NP:-4 8}) || list=(${OPENMPI_NP:-4 8})
        np=${list[RANDOM % ${#list[@]}]}
        fault=${example_faults[RANDOM % ${#example_faults[@]}]}
    fi
    sampler=${samplers[RANDOM % ${#samplers[@]}]}
    rank=$((RANDOM % np))
    at=$((15 + RANDOM % 16))
    # An example's faulty run would end 5 s after its own fault: from then on nothing can finish
    # it. A master-worker job with a faulty worker legitimately goes on with its other workers
    # until its time is up, and hangs only then: it ends 10 s after the fault. Another run with a
    # fault from outside runs until mpiguard stops it.
    case $type-$fault-$program in
    faulty-compute-loop-*) seconds=$((at + 5)) ;;
    faulty-deadlock-start-master_worker) seconds=10 at=0 ;;
    faulty-deadlock-start-*) seconds=600 at=0 ;;
    faulty-*-master_worker) seconds=$((at + 10)) ;;
    faulty-*) seconds=600 ;;
    # hpcc's correct run solves its fixed problems whatever the seconds: they size its limit, for
    # the 65 s it takes idle and the 375 s it took at load 40 (a limit of 313 s ended one)
    correct-*-hpcc) seconds=300 ;;
    *) seconds=$((60 + RANDOM % 16)) ;;
    esac
    if [ -n "${PLAN_ONLY:-}" ]; then
        printf '%s\t' $((start_id + i)) "$type" "$mpi" "$program" "$np" "$sampler" "$fault" "$rank" "$at"
        echo "$seconds"
        continue
    fi
    one_run $((start_id + i)) "$type" "$mpi" "$program" "$np" "$sampler" "$fault" "$rank" "$at" "$seconds" &
    n=$((n + 1))
    if [ "$n" -ge "$parallel" ]; then wait -n; n=$((n - 1)); fi
    printf '\r%d/%d runs started' $((i + 1)) $((faulty + correct)) >&2
done
wait
echo >&2
