#!/bin/bash
# `mpiguard hang` when things go wrong around it. Usage: hang_robustness.sh CASE
#   ptrace-refused  every rank held by another tracer (a debugger): one warning per rank, and no false
#                   alarm although no rank can be seen; the job ends untouched
#   sigkill         mpiguard SIGKILLed while sampling with ptrace: no rank is left stopped
#   sigint          mpiguard SIGINTed while sampling with ptrace: exit 130, job stopped, none stopped
#   attach-non-mpi  --attach to a process with no MPI rank: a clear error and 66, not a wait forever
#   small-job       a job with fewer ranks than 2C: said so, watched, ends untouched
. "$(dirname "$0")/../lib.sh"
app="$BUILD/examples/openmpi/stencil"

# start_hang SECONDS ARGS...: mpiguard hang (ARGS) in the background on 8 stencil ranks running for
# SECONDS; sets $guard and $token.
start_hang() {
    local seconds=$1
    shift
    "$MPIGUARD" hang -v "$@" -- mpirun.openmpi -n 8 "$app" --announce --seconds "$seconds" >"$TMP/stdout" 2>"$TMP/stderr" &
    guard=$!
    for _ in $(seq 1 100); do
        [ "$(grep -c "^stencil: rank" "$TMP/stderr")" -eq 8 ] && break
        sleep 0.1
    done
    token=$(grep -o 'MPIGUARD_JOB_TOKEN=[0-9a-f]*' "$TMP/stderr" | head -1 | cut -d= -f2)
    [ -n "$token" ] || fail "the job did not start"
}
rank_pid() { sed -n "s/^stencil: rank $1 of 8 pid \([0-9]*\)$/\1/p" "$TMP/stderr"; }
stopped_ranks() {
    for pid in $(token_processes "$token"); do
        awk '{print $3}' "/proc/$pid/stat" 2>/dev/null | grep -q '^[tT]$' && echo "$pid"
    done
}

case "$1" in
ptrace-refused)
    start_hang 30 --sampler ptrace --seed 3 --report "$TMP/r.json"
    holders=()
    for r in 0 1 2 3 4 5 6 7; do
        "$BUILD/tests/ptrace_holder" "$(rank_pid $r)" 40 >/dev/null &
        holders+=($!)
    done
    wait $guard
    status=$?
    kill "${holders[@]}" 2>/dev/null
    [ $status -eq 0 ] || { cat "$TMP/stderr"; fail "exit $status: ranks that cannot be sampled caused a false alarm"; }
    warned=$(grep -c "rank [0-7] (pid .*) cannot be sampled: operation not permitted" "$TMP/stderr")
    [ "$warned" -ge 1 ] || { cat "$TMP/stderr"; fail "no warning about ranks that cannot be sampled"; }
    for r in 0 1 2 3 4 5 6 7; do
        [ "$(grep -c "rank $r (pid .*) cannot be sampled" "$TMP/stderr")" -le 1 ] || fail "rank $r warned more than once"
    done
    grep -q "no hang found" "$TMP/stderr" || fail "no closing line"
    ;;
sigkill | sigint)
    start_hang 60 --sampler ptrace --interval 0.005 --max-interval 0.005
    sleep 3
    kill -s "${1#sig}" $guard
    wait $guard
    status=$?
    sleep 0.3
    stuck=$(stopped_ranks)
    [ -z "$stuck" ] || fail "ranks left stopped after SIG${1#sig} of mpiguard: $stuck"
    if [ "$1" = sigint ]; then
        [ $status -eq 130 ] || fail "exit $status after SIGINT, expected 130"
        [ -z "$(token_processes "$token")" ] || fail "processes of the job left"
    else
        [ -n "$(token_processes "$token")" ] || fail "the job should outlive a SIGKILLed mpiguard"
        for pid in $(token_processes "$token"); do kill -9 "$pid"; done
        rm -f /dev/shm/mpiguard-"$token"-*
    fi
    ;;
attach-non-mpi)
    sleep 60 &
    sleeper=$!
    expect_status 66 "attach to a non-MPI process" -- timeout 30 "$MPIGUARD" hang --attach $sleeper
    kill $sleeper
    expect_stderr "no MPI rank found"
    ;;
small-job)
    expect_status 0 "small job" -- "$MPIGUARD" hang --seed 5 -- mpirun.openmpi -n 3 "$app" --seconds 8
    expect_stderr "1 ranks per set, fewer than 2C ranks"
    expect_stderr "no hang found"
    ;;
*) fail "unknown case $1" ;;
esac
pass "hang robustness: $1"
