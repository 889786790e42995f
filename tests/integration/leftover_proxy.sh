#!/bin/bash
# A suspended MPICH job interrupted (issue 26): every process of it stopped (as `scontrol suspend`
# or a SIGSTOP to the job does), then SIGINT to `mpiguard check` alone (as a batch system or `kill`
# sends it). Hydra's launcher cannot pass the signal on to its stopped hydra_pmi_proxy, so at the
# end of the grace time mpiguard kills what is left of the job by its token: the ranks, and the
# proxy, which has no rank variable but carries the token as MPIGUARD_JOB_TREE, inherited from the
# launcher. Without it the proxy stays, stopped, for good. Only this test's own processes are
# signalled, by pid.
# Usage: leftover_proxy.sh
. "$(dirname "$0")/../lib.sh"
app="$BUILD/examples/mpich/cg"
setsid "$MPIGUARD" check -v -- $(launcher_for mpich) -n 2 "$app" --seconds 300 \
    >"$TMP/stdout" 2>"$TMP/stderr" &
guard=$!
proxy=""
# what this test started, should an assertion end it early: mpiguard, then the job by pid
trap 'kill -KILL $guard $proxy $(token_processes "$TOKEN") 2>/dev/null; rm -rf "$TMP"' EXIT
await_rank $guard 2 0 || { cat "$TMP/stderr" >&2; fail "the job's ranks did not show"; }
proxy=$(ps -o ppid= -p "$RANK_PID" | tr -d ' ')
[ "$(cat "/proc/$proxy/comm" 2>/dev/null)" = hydra_pmi_proxy ] ||
    fail "rank 0's parent $proxy is not hydra_pmi_proxy: $(cat "/proc/$proxy/comm" 2>/dev/null)"
grep -q -z -x "MPIGUARD_JOB_TREE=$TOKEN" "/proc/$proxy/environ" ||
    fail "hydra_pmi_proxy (pid $proxy) does not carry the job's token"
# the job suspended: its daemon and its ranks
kill -STOP "$proxy" $(token_processes "$TOKEN")
kill -INT $guard
wait_ended $guard 60 || fail "mpiguard did not end within 60 s of SIGINT"
wait $guard
status=$?
[ $status -eq 130 ] || { cat "$TMP/stderr" >&2; fail "mpiguard exited $status after SIGINT, expected 130"; }
expect_stderr "process(es) of the job that outlived the launcher"
# the proxy, killed, is reaped by whoever adopted it a moment later
gone() { [ ! -e "/proc/$1" ] || [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" = Z ]; }
for _ in $(seq 50); do gone "$proxy" && break; sleep 0.1; done
gone "$proxy" || fail "hydra_pmi_proxy (pid $proxy) of the interrupted job is left ($(cut -d' ' -f3 "/proc/$proxy/stat"))"
tree=$(grep -l -z -x "MPIGUARD_JOB_TREE=$TOKEN" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3)
[ -z "$tree$(token_processes "$TOKEN")" ] || fail "processes of the job left: $tree $(token_processes "$TOKEN")"
pass "a suspended MPICH job interrupted: its hydra_pmi_proxy found by token and killed, nothing left"
