#!/bin/bash
# The solver's limits in a campaign (docs/design/concolic.md "Stopping, progress and the final report"),
# on programs/pigeons.c, whose run 77 (DFS, no reduction) is followed by a pigeonhole query: the
# query runs out of its budget, is counted, and the campaign goes on; SIGINT during that solve
# stops the campaign within a second, with the run before it counted and saved.
#   solver_limits.sh FLAVOR   (registered for MPICH: tests/concolic/CMakeLists.txt says why)
. "$(dirname "$0")/../lib.sh"
flavor=$1
src=$(cd "$(dirname "$0")/programs" && pwd)
export PATH="$BUILD/bin:$PATH" MPIGUARD_MPI=$flavor
cd "$TMP" || fail "no tmp dir"
mpiguard-cc -o pigeons "$src/pigeons.c" || fail "build pigeons"
# Tuned (the default): the pigeonhole solve follows run 77 as it does capped. Its 76 runs before
# are made once and resumed twice (tuned, a resumed campaign makes the same runs): tuning's checks
# cost about 3.5 s of solving per run here, and two whole campaigns passed the test's 600 s at
# load 20-30.
search=(--np 1 --fixed --no-reduce --strategy dfs)
expect_status 0 "the 76 runs before the query" -- "$MPIGUARD" concolic --mpi "$flavor" "${search[@]}" \
    --iterations 76 --dir c-base -- ./pigeons
cp -r c-base c-limit || fail "copy the campaign"

# The query that times out: skipped as unsatisfiable, counted, the campaign goes on.
expect_status 0 "query over its budget" -- "$MPIGUARD" concolic --mpi "$flavor" "${search[@]}" \
    --resume --iterations 3 --report limits.json --dir c-limit -- ./pigeons
grep -q "^iterations 79$" c-limit/campaign || fail "the resumed campaign did not reach run 79"
grep -qE "^cost: 3 runs .* [1-9][0-9]* over the time limit\)" "$TMP/stdout" ||
    { grep "^cost" "$TMP/stdout" >&2; fail "no query over its budget"; }
tr -d ' \n' <limits.json | grep -qE '"query_timeouts":[1-9]' || fail "JSON: no query_timeouts"
slow=$(awk -F'\t' '$1 == 77 { print $10 }' c-limit/runs.tsv)
echo "the solve after run 77 took $slow s"

# SIGINT while that solve runs: the run it follows is counted, the solve is cut short. With -v the
# campaign says when it starts solving after a run; the signal comes 0.2 s later, inside the solve
# of the pigeonhole query, which has a budget of at least a second. Should that solve end before
# the signal (it cannot on this query, but a loaded machine may delay the signal), the campaign is
# tried again, up to three times. The wait for run 77 lasts while the campaign runs (the resumed
# run 77 at load 42 can take longer than the fixed 30 s this wait had: its failure at load 45).
interrupt_in_solve() {
    rm -rf c-int
    cp -r c-base c-int || fail "copy the campaign"
    "$MPIGUARD" concolic -v --mpi "$flavor" "${search[@]}" --resume --iterations 3 --dir c-int -- ./pigeons \
        >int.out 2>int.err &
    pid=$!
    while kill -0 $pid 2>/dev/null && ! grep -q "solving after run 77$" int.err; do sleep 0.01; done
    grep -q "solving after run 77$" int.err || { kill -KILL $pid; fail "the solve after run 77 never came"; }
    sleep 0.2
    grep -q "^mpiguard: concolic: run 77 " int.err || return 0
    kill -KILL $pid
    wait $pid 2>/dev/null
    return 1
}
for attempt in 1 2 3; do
    interrupt_in_solve && break
    echo "attempt $attempt: the solve after run 77 was over before the signal"
    [ $attempt -lt 3 ] || fail "the solve after run 77 was over before the signal, 3 times"
done
start=$(date +%s.%N)
kill -INT $pid
wait_ended $pid 10 || { kill -KILL $pid; fail "SIGINT during a solve: still running 10 s later"; }
wait $pid
got=$?
took=$(echo "$(date +%s.%N) - $start" | bc)
echo "SIGINT during the solve: the campaign ended $took s later"
[ $got -eq 130 ] || { tail -3 int.err >&2; fail "SIGINT during a solve: exit status $got"; }
grep -q "stopped by signal 2 after 1 runs" int.err || { tail -3 int.err >&2; fail "SIGINT during a solve: not after run 77"; }
grep -q "^iterations 77$" c-int/campaign || fail "SIGINT during a solve: run 77 not saved"
# Cut short, not waited out: the solve recorded for run 77 is shorter than the uninterrupted one
# (its budget), whatever the load; the wall-clock bound only catches a campaign that ran on.
cut=$(awk -F'\t' '$1 == 77 { print $10 }' c-int/runs.tsv)
echo "the interrupted solve after run 77 took $cut s"
[ -n "$cut" ] && [ "$(echo "$cut < 0.9 * $slow" | bc)" -eq 1 ] ||
    fail "SIGINT during a solve: the solve ran on ($cut s of $slow s)"
[ "$(echo "$took < 5" | bc)" -eq 1 ] || fail "SIGINT during a solve took $took s"
pass "solver limits with $flavor"
