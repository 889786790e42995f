#!/bin/bash
# Bad inputs of mpiguard-cc and `mpiguard concolic` (docs/design/concolic.md "Tests"): each case asserts
# the documented status and message, and that nothing is left running.
#   bad_inputs.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
src=$(cd "$(dirname "$0")/programs" && pwd)
export PATH="$BUILD/bin:$PATH" MPIGUARD_MPI=$flavor
cd "$TMP" || fail "no tmp dir"
campaign() { "$MPIGUARD" concolic --mpi "$flavor" "$@"; }

# A program that does not compile: the compiler's status, no outputs.
expect_status 1 "mpiguard-cc on a syntax error" -- mpiguard-cc -o bad "$src/bad_syntax.c"
[ ! -e bad ] && [ ! -e bad.mpiguard-heavy ] || fail "outputs written for a program that does not compile"

# A program that never calls MPI_Init: the campaign runs, covers both arms of its branch.
mpiguard-cc -o nompi "$src/no_mpi_init.c" || fail "build no_mpi_init"
expect_status 0 "no MPI_Init" -- campaign --np 1 --iterations 4 --dir c-nompi -- ./nompi
grep -q "coverage: 2 of 2 branch arms" "$TMP/stdout" || fail "no MPI_Init: coverage"

mpiguard-cc -o edge "$src/edge_cases.c" || fail "build edge_cases"
# A marked variable never reached: no error, runs go on.
expect_status 0 "marked variable never reached" -- campaign --np 2 --iterations 6 --dir c-unreached -- ./edge unreached
# random-all: the first run is random too (64 values, its one input not the default 1, its np
# within --max-np), and so is the next (64 values again: the program's one input is not all a
# random run draws).
expect_status 0 "random-all" -- campaign --np 1 --max-np 3 --strategy random-all --iterations 2 --dir c-rall -- ./edge
awk -F'\t' '$1 == 1 { ok = $2 >= 1 && $2 <= 3 && split($11, v, " ") == 64 && v[1] != 1 } END { exit !ok }' c-rall/runs.tsv ||
    { cat c-rall/runs.tsv >&2; fail "random-all: the first run was not random"; }
grep -qE "^inputs 64( -?[0-9]+){64}$" c-rall/campaign || fail "random-all: the next run is not 64 random values"
# An unsatisfiable path: skipped, the arm stays uncovered, no error.
expect_status 0 "unsatisfiable path" -- campaign --np 1 --iterations 8 --dir c-unsat -- ./edge unsat
# The line of edge_cases.c that carries the comment /* TAG */.
line_of() { grep -n "/\* $1 \*/" "$src/edge_cases.c" | cut -d: -f1; }
grep -q "edge_cases.c:$(line_of UNSAT) main b[0-9]* if true" "$TMP/stdout" || fail "unsat: the impossible arm should be listed uncovered"
# The three branches of that one line (the mode's test, x > 5, x < 3), none taken by a run in
# another mode but the first's false arm: the report lists their five other arms, each once,
# told apart by branch id and arm.
expect_status 0 "one line, three branches" -- campaign --np 1 --iterations 1 --dir c-line -- ./edge unreached
arms=$(grep "edge_cases.c:$(line_of UNSAT) main b[0-9]* if " "$TMP/stdout" | sort -u)
[ "$(echo "$arms" | wc -l)" -eq 5 ] && [ "$(echo "$arms" | awk '{ print $3 }' | sort -u | wc -l)" -eq 3 ] ||
    { cat "$TMP/stdout" >&2; fail "the arms of one line are not told apart: $arms"; }
# A hang on x == 42: classified as a timeout bug with its inputs, within the per-run timeout.
start=$SECONDS
expect_status 80 "hang" -- campaign --np 2 --iterations 6 --timeout 10 --dir c-hang -- ./edge hang
grep -q "^bug timeout" c-hang/campaign || fail "hang not reported as a timeout"
grep -q "^inputs 42" c-hang/bugs/bug-1.txt || fail "hang reproducer lacks x = 42"
[ $((SECONDS - start)) -lt 120 ] || fail "hang: the campaign took $((SECONDS - start)) s"
# A program that forks: the child carries the job token and is killed with the job. MPICH's
# launcher waits for the child (it holds the PMI socket), so the run may end as a timeout; either
# way the campaign completes and nothing is left running.
campaign --np 2 --iterations 2 --timeout 5 --dir c-fork -- ./edge fork >/dev/null 2>&1
grep -q "^iterations 2$" c-fork/campaign || fail "fork: the campaign did not complete"
sleep 1
[ -z "$(pgrep -f "edge fork" || true)" ] || fail "fork: processes left behind"
# A target that deletes its log: a warning, the campaign goes on.
expect_status 0 "log deleted" -- campaign --np 1 --iterations 3 --dir c-dellog -- ./edge delete-log
expect_stderr "log (rank 0)"
# A target that overwrites its log with garbage: a warning naming the log and why, the campaign goes on.
expect_status 0 "log corrupted" -- campaign --np 1 --iterations 3 --dir c-badlog -- ./edge corrupt-log
expect_stderr "log (rank 0)"
grep -q "^iterations 3$" c-badlog/campaign || fail "corrupt log: the campaign did not complete"
# A rank that crashes while another still computes: the crashing rank waits for the other to
# settle (docs/design/concolic.md "Runtime"), so rank 0 takes its branch 100 ms later, before the job ends.
expect_status 80 "crash-early" -- campaign --np 2 --iterations 1 --dir c-early -- ./edge crash-early
grep -q "^bug signal:11:" c-early/campaign || fail "crash-early: rank 1's crash not reported"
early=$(line_of CRASH-EARLY)
! grep -q "edge_cases.c:$early main b[0-9]* if false" "$TMP/stdout" ||
    fail "crash-early: rank 0 was ended before its branch at line $early"
# A process count above --max-np: a usage error before anything runs.
expect_status 64 "np above max-np" -- campaign --np 8 --max-np 4 -- ./edge
expect_stderr "above --max-np"
# A campaign directory from another build is refused, with and without --resume.
mpiguard-cc -o other "$src/other_build.c" || fail "build other_build"
expect_status 0 "first campaign" -- campaign --np 1 --iterations 2 --dir c-shared -- ./other
expect_status 65 "another build's directory" -- campaign --np 1 --iterations 2 --dir c-shared -- ./edge
expect_stderr "another build"
expect_status 65 "resume another build" -- campaign --resume --iterations 2 --dir c-shared -- ./edge
# --resume continues the same build's campaign: iterations add up.
expect_status 0 "resume" -- campaign --resume --iterations 2 --dir c-shared -- ./other
grep -q "^iterations 4$" c-shared/campaign || fail "resume did not continue the campaign"
# A program not built with mpiguard-cc.
expect_status 66 "no branch table" -- campaign --np 1 --iterations 1 -- "$BUILD/examples/$flavor/cg"
pass "bad inputs handled with $flavor"
