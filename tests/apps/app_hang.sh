#!/bin/bash
# `mpiguard hang` on a Debian application's long run (tests/apps/apps.sh), faults injected from
# outside the application, which we cannot rebuild. Usage: app_hang.sh APP NRANKS CASE SAMPLER
#   healthy       the run (at least APPS_LONG_SECONDS, past 60 s) goes to its end: the application's
#                 own exit status (app_long_status), no finding, "no hang found", its results complete
#   stop-WHERE    rank 1 SIGSTOPped once the model has learnt the job (FAULT_AT s after every rank is
#                 found; docs/hang.md: a hang before that is missed)
#   spin-WHERE    rank 1 made to spin forever then: libspin_on_signal.so, preloaded from the
#                 environment before mpiguard (merged into the ranks' LD_PRELOAD), spins in its
#                 SIGUSR2 handler
# WHERE says where the fault catches rank 1, read from its published state (shm sampler only): out
# (between MPI calls) or in (inside an MPI call). The rank is SIGSTOPped and its state read; when it
# is elsewhere, it is continued and caught again a moment later. A spin is then SIGUSR2 sent to the
# stopped rank and SIGCONT: the handler runs where the rank stood.
# A fault must give exit 81 and one hang finding that names rank 1 as the faulty rank, the job
# stopped and nothing of it left.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/apps.sh"
app=$1 np=$2 case=$3 sampler=$4
faulty=1
fault_at=${FAULT_AT:-25}
launcher=$(launcher_for openmpi)
report="$TMP/report.json"
# A faulty run is stopped by mpiguard: its time limit only needs to outlast the catch of rank 1,
# which may take long where the application is seldom outside MPI.
[ "$case" = healthy ] || APPS_LONG_SECONDS=600
app_prepare "$app" long "$TMP/run" || fail "inputs of $app"
[ "${case%-*}" != spin ] || export LD_PRELOAD="$BUILD/tests/apps/libspin_on_signal.so${LD_PRELOAD:+:$LD_PRELOAD}"
started=$SECONDS
(cd "$TMP/run" && exec "$MPIGUARD" hang -v --sampler "$sampler" --seed 7 --report "$report" -- $launcher -n "$np" $(app_command "$app" long)) >"$TMP/stdout" 2>"$TMP/stderr" &
guard=$!
unset LD_PRELOAD

# Every rank found (by the job's token in its environment), then rank 1's pid.
token="" faulty_pid=""
for _ in $(seq 1 600); do
    [ -n "$token" ] || token=$(grep -o 'MPIGUARD_JOB_TOKEN[= ][0-9a-f]*' "$TMP/stderr" | head -1 | cut -c20-)
    if [ -n "$token" ] && [ "$(token_processes "$token" | wc -l)" -eq "$np" ]; then
        for pid in $(token_processes "$token"); do
            grep -q -z "^OMPI_COMM_WORLD_RANK=$faulty\$" "/proc/$pid/environ" 2>/dev/null && faulty_pid=$pid
        done
        break
    fi
    kill -0 $guard 2>/dev/null || break
    sleep 0.2
done
[ -n "$faulty_pid" ] || { kill -INT $guard; wait $guard; cat "$TMP/stderr" >&2; fail "the ranks of $app were not all found"; }

if [ "$case" = healthy ]; then
    wait_ended $guard 900 || { kill -INT $guard; wait $guard; fail "healthy $app still running after 900 s"; }
    wait $guard
    status=$?
    elapsed=$((SECONDS - started))
    [ $status -eq "$(app_long_status "$app")" ] || { cat "$TMP/stderr" >&2; fail "healthy $app under hang: exit status $status, expected $(app_long_status "$app")"; }
    expect_stderr "no hang found in $np of $np ranks observed"
    [ $elapsed -ge 60 ] || fail "the healthy run lasted $elapsed s, under the 60 s it must be watched"
    app_result "$app" "$TMP/run" "$TMP/stdout" >/dev/null || fail "healthy $app did not run to its end"
else
    sleep "$fault_at"
    kill -0 $guard 2>/dev/null || { cat "$TMP/stderr" >&2; fail "mpiguard ended before the fault"; }
    inject_fault "$token" "$np" "$faulty" "$faulty_pid" "$case" || fail "rank $faulty never caught ${case#*-} MPI"
    faulted=$SECONDS
    expect_verdict $guard 300 "the $case of rank $faulty in $app"
    expect_stderr "mpiguard: ERROR HANG"
    echo "the ${case%-*} of rank $faulty found and the job stopped $((SECONDS - faulted)) s after it"
fi
python3 - "$report" "$case" "$faulty" "$np" <<'PY' || { cat "$TMP/stderr" >&2; fail "report content"; }
import json, sys
r = json.load(open(sys.argv[1])); case, faulty, np = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
assert r["tool"] == "hang" and sorted(e["rank"] for e in r["job"]["ranks"]) == list(range(np)), r["job"]
if case == "healthy":
    assert r["findings"] == [] and r["job"]["outcome"] == "completed", r["findings"]
    sys.exit(0)
assert len(r["findings"]) == 1 and r["job"]["outcome"] == "stopped", (r["findings"], r["job"])
ev = r["findings"][0]["evidence"]
assert ev["faulty_ranks"] == [faulty], (ev["hang_type"], ev["faulty_ranks"], ev["per_rank"])
PY
sleep 0.5
[ -z "$(token_processes "$token")" ] || fail "processes of the job left: $(token_processes "$token")"
pass "hang $app, $np ranks, $sampler: $case$([ "$case" = healthy ] && echo " for $elapsed s, no false alarm" || echo ": rank $faulty named")"
