#!/bin/bash
# The user's side of a campaign (docs/design/concolic.md "Stopping, bugs and reports"), on
# programs/user_side.c: two different hangs are two bugs, each placed; an MPI error caught by the
# library's handler is an mpi_error, not a rejected input; the progress line names the run just
# finished; the JSON report has coverage per file and function; a marked local the program never
# sets starts at 0; SIGINT during a run stops the
# campaign at once with its report written and a campaign that --resume continues; --time is
# honoured within a second while a run is in progress.
#   user_side.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
src=$(cd "$(dirname "$0")/programs" && pwd)
export PATH="$BUILD/bin:$PATH" MPIGUARD_MPI=$flavor
cd "$TMP" || fail "no tmp dir"
mpiguard-cc -o us "$src/user_side.c" || fail "build user_side"
campaign() { "$MPIGUARD" concolic --mpi "$flavor" "$@"; }
line_of() { grep -n "/\* $1 \*/" "$src/user_side.c" | cut -d: -f1; }

# Two hangs, two bugs: a deadlock and a spin, told apart by where the ranks were stopped.
expect_status 80 "hangs" -- campaign --np 2 --fixed --iterations 5 --timeout 4 --report hangs.json \
    --dir c-hangs -- ./us hangs
[ "$(grep -c '^bug timeout:' c-hangs/campaign)" -eq 2 ] || { cat c-hangs/campaign >&2; fail "hangs: not two timeout bugs"; }
grep -q "^bug timeout:after .*user_side.c:$(line_of SPIN)$" c-hangs/campaign || fail "hangs: the spin's place"
grep -qE "mpiguard: concolic: run 2  np 2 focus 0  timeout  [0-9.]+ s  [0-9]+/[0-9]+ arms  1 bugs" "$TMP/stderr" ||
    { cat "$TMP/stderr" >&2; fail "progress line of the run just finished"; }
tr -d ' \n' <hangs.json | grep -q '"coverage_by_function":\[{"function":"main","arms_covered":[1-9][0-9]*,"arms_total":[0-9]*}\],"coverage_by_file":\[{"file":"[^"]*user_side.c"' ||
    fail "the JSON report lacks the coverage per function and file"

# An MPI error, ended by the library's own handler, on both MPIs.
expect_status 80 "mpi error" -- campaign --np 2 --fixed --iterations 3 --dir c-mpi -- ./us mpi-error
awk -F'\t' '$1 == 2 && $4 == "mpi_error" { ok = 1 } END { exit !ok }' c-mpi/runs.tsv ||
    { cat c-mpi/runs.tsv >&2; fail "the MPI error was not classed mpi_error"; }

# A marked local the program never sets starts at 0 (mpiguard-cc's default), not stack garbage.
expect_status 0 "uninitialised input" -- campaign --np 1 --fixed --iterations 1 --dir c-uninit -- ./us uninit
awk -F'\t' '$1 == 1 { ok = $11 == "1 0" } END { exit !ok }' c-uninit/runs.tsv ||
    { cat c-uninit/runs.tsv >&2; fail "the unset input did not start at 0"; }

# SIGINT during a run: the campaign stops at once (the run is not counted), writes its report,
# and --resume runs it again.
"$MPIGUARD" concolic --mpi "$flavor" --np 2 --iterations 5 --timeout 60 --report int.json --dir c-int \
    -- ./us sleep >int.out 2>int.err &
pid=$!
for _ in $(seq 200); do [ -e c-int/run/rank-1.log ] && break; sleep 0.1; done
[ -e c-int/run/rank-1.log ] || fail "sleep: the run did not start"
kill -INT $pid
wait_ended $pid 10 || { kill -KILL $pid; fail "SIGINT: the campaign still ran 10 s later"; }
wait $pid
got=$?
[ $got -eq 130 ] || { cat int.err >&2; fail "SIGINT: exit status $got, expected 130"; }
grep -q "stopped by signal 2 after 0 runs" int.err || { cat int.err >&2; fail "SIGINT: no message"; }
[ -s int.json ] || fail "SIGINT: no report"
grep -q "^iterations 0$" c-int/campaign || fail "SIGINT: the interrupted run was counted"
sleep 1
[ -z "$(pgrep -f "us sleep" || true)" ] || fail "SIGINT: processes left behind"
expect_status 80 "resume after SIGINT" -- campaign --resume --iterations 1 --timeout 1 --dir c-int -- ./us sleep
grep -q "^iterations 1$" c-int/campaign || fail "resume after SIGINT"

# --time while a run is in progress: the run is stopped at the budget, not at its timeout, and
# killed there (Open MPI's mpirun alone takes a second to end a job it is asked to stop), with no
# process of it left behind.
start=$(date +%s.%N)
expect_status 0 "--time" -- campaign --np 2 --iterations 5 --timeout 60 --time 3 --dir c-time -- ./us sleep
over=$(echo "$(date +%s.%N) - $start - 3" | bc)
echo "--time 3: ended $over s past the budget"
[ "$(echo "$over < 1" | bc)" -eq 1 ] || fail "--time 3 overran by $over s"
# The job's processes, found by their directory: other campaigns may run the same program here.
job_left() {
    for p in $(pgrep -f "us sleep|hydra_pmi_proxy|orted" || true); do
        [ "$(readlink "/proc/$p/cwd" 2>/dev/null)" = "$TMP" ] && echo "$p"
    done
}
for _ in $(seq 10); do [ -z "$(job_left)" ] && break; sleep 0.1; done
[ -z "$(job_left)" ] || fail "--time: processes left behind: $(job_left | tr '\n' ' ')"
pass "the user's side with $flavor"
