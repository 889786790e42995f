#!/bin/bash
# The examples' injected faults really happen, as each tool's tests will rely on: the faulty rank is
# in the state the fault means, the job does not finish, and Ctrl-C (SIGINT to mpiguard) stops the
# whole job with status 130 and no rank left behind.
# Usage: faults.sh FLAVOR EXAMPLE FAULT
. "$(dirname "$0")/../lib.sh"
flavor=$1 example=$2 fault=$3
np=4 faulty=1 dump="$BUILD/tests/rank_state_dump"
app="$BUILD/examples/$flavor/$example"
"$MPIGUARD" run -v -- $(launcher_for "$flavor") -n $np "$app" --seconds 60 --announce \
    --fault "$fault" --fault-rank $faulty --fault-at 1 >"$TMP/stdout" 2>"$TMP/stderr" &
guard=$!
# The fault fires 1 s after MPI start: wait for the ranks to announce themselves, then 3 s more.
for _ in $(seq 1 300); do
    [ "$(grep -c "^$example: rank" "$TMP/stderr")" -eq $np ] && break
    sleep 0.1
done
sleep 3
token=$(grep -o 'MPIGUARD_JOB_TOKEN[= ][0-9a-f]*' "$TMP/stderr" | head -1 | cut -c20-)
pid=$(sed -n "s/^$example: rank $faulty of $np pid \([0-9]*\)$/\1/p" "$TMP/stderr")
[ -n "$token" ] && [ -n "$pid" ] || { kill -INT $guard; cat "$TMP/stderr"; fail "job did not start"; }
calls() { echo "$1" | sed -n 's/.* calls \([0-9]*\).*/\1/p'; }
state_of() { "$dump" "$token" $np | sed -n "s/^rank $1 //p"; }
# Under load the fault may fire late: look again (up to 5 times) until the counter stands still.
for _ in 1 2 3 4 5; do
    first=$(state_of $faulty)
    sleep 1
    second=$(state_of $faulty)
    [ "$(calls "$first")" = "$(calls "$second")" ] && break
done
proc_state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)
in_mpi() { echo "$1" | sed -n 's/^in_mpi \([0-9]*\).*/\1/p'; }
check() { "$@" || { kill -INT $guard; wait $guard; fail "$fault in $example: '$first' then '$second', /proc state $proc_state"; }; }
check [ "$(calls "$first")" = "$(calls "$second")" ]   # no progress on the faulty rank
case "$fault" in
    compute-loop) check [ "$(in_mpi "$second")" = 0 ]; check [ "$proc_state" = R ] ;;
    sleep)        check [ "$(in_mpi "$second")" = 0 ]; check [ "$proc_state" = S ] ;;
    stop)         check [ "$proc_state" = T ] ;;
    deadlock)     check [ "$(in_mpi "$second")" -ge 1 ]; check grep -q "fn MPI_Recv" <<<"$second" ;;
esac
kill -INT $guard
wait $guard
status=$?
[ $status -eq 130 ] || fail "mpiguard exited $status after SIGINT, expected 130"
grep -q "^$example: $np ranks" "$TMP/stdout" && fail "the faulty job claims to have finished"
sleep 0.5
[ -z "$(token_processes "$token")" ] || fail "ranks left running: $(token_processes "$token")"
pass "$flavor $example $fault: faulty rank state right, job stopped by SIGINT, nothing left"
