#!/bin/bash
# Findings people act on (issue 28 item 7), on real MPICH jobs of 2 ranks from the check suite:
# the banners say who waits for whom (a rank that finalized is the one waited for; a rank alone
# waits for itself) and give each call's file:line on the terminal; `--checks` selects classes,
# lists them on the clean line and refuses an unknown one (64); a real check report renders as a
# well-formed HTML page with its classes, ranks, file:line, source text and wait-for graph.
. "$(dirname "$0")/../lib.sh"
programs="$(cd "$(dirname "$0")/../check/programs" && pwd)"
bin="$BUILD/tests/check/mpich"
check() { "$MPIGUARD" check --report "$TMP/$1.json" "${@:2}" -- mpiexec.mpich -n 2 "$bin/$1"; }
# exact_line TEXT: stderr has TEXT as a whole line.
exact_line() { grep -qxF -- "$1" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "no line '$1'"; }; }

expect_status 82 "stuck on a finalized rank" -- check stuck_recv_from_finalized
exact_line "mpiguard: ERROR STUCK_ON_TERMINATED rank 0 ended (finalized); rank 1 waits for it: rank 1 in MPI_Recv(from 0)"
exact_line "mpiguard:   rank 1: MPI_Recv() at $programs/stuck_recv_from_finalized.c:14"
expect_status 0 "html of the stuck report" -- "$MPIGUARD" report --format html -o "$TMP/stuck.html" "$TMP/stuck_recv_from_finalized.json"
python3 "$(dirname "$0")/html_check.py" "$TMP/stuck.html" "$TMP/stuck_recv_from_finalized.json" || fail "stuck report's html"
grep -qF 'MPI_Recv(&amp;x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* &lt;- reported */</pre>' "$TMP/stuck.html" || fail "the html lacks the source line"
grep -qF '>rank 1: MPI_Recv(from 0)</text>' "$TMP/stuck.html" || fail "the html graph lacks rank 1's node"

expect_status 82 "a rank waiting for itself" -- check ssend_to_self
exact_line "mpiguard: ERROR DEADLOCK rank 0 waits for itself (rank 0 in MPI_Ssend(to 0))"
exact_line "mpiguard:   rank 0: MPI_Ssend() at $programs/ssend_to_self.c:13"
! grep -q "each other" "$TMP/stderr" || fail "one rank said to wait for each other"

expect_status 82 "two ranks waiting for each other" -- check fig1b_recv_recv
grep -q "^mpiguard: ERROR DEADLOCK ranks 0-1 wait for each other (rank 0 in MPI_Recv(from 1))$" "$TMP/stderr" || fail "fig1b banner"
expect_status 0 "html of fig1b" -- "$MPIGUARD" report --format html -o "$TMP/fig1b.html" "$TMP/fig1b_recv_recv.json"
python3 "$(dirname "$0")/html_check.py" "$TMP/fig1b.html" "$TMP/fig1b_recv_recv.json" || fail "fig1b report's html"
# the OR-knot's two processes are drawn filled, as in MUST's output
[ "$(grep -o 'fill="#ccc"' "$TMP/fig1b.html" | wc -l)" -eq 2 ] || fail "fig1b's knot is not highlighted"

expect_status 64 "--checks with an unknown class" -- check type_truncation --checks deadlock,leeks
expect_stderr "mpiguard: error: --checks: 'leeks' is neither a group of checks (deadlock, collective, type, args, rma, buffers, lifecycle, races, all) nor a class of check"
expect_status 0 "--checks leaving out type" -- check type_truncation --checks -type
exact_line "mpiguard: check: nothing found in 2 of 2 ranks observed (checked: deadlock, potential_deadlock, stuck_on_terminated, collective_mismatch, comm_null, comm_freed, negative_count, null_buffer, rank_out_of_range, root_out_of_range, tag_out_of_range, datatype_null, datatype_freed, datatype_uncommitted, op_freed, request_freed, group_freed, win_freed, message_null, topology_missing, op_type_mismatch, rma_access_outside_epoch, rma_epoch_twice, rma_epoch_unclosed, rma_close_without_open, rma_conflicting_access, send_buffer_modified, pending_buffers_overlap, request_not_completed, request_not_freed, request_started_twice, communicator_leak, lost_message, no_finalize, call_after_finalize, mpi_error, message_race, window_leak, group_leak, datatype_leak, op_leak, info_leak, errhandler_leak; not checked: datatypes made by constructors not wrapped (darray, hindexed_block), receive buffers the program reads or writes before their completion, loads and stores to a window's memory, passive-target lock waits, errors MPI raises on windows and files; not selected by --checks: type_mismatch, truncation; 1 finding of those left out)"
python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['findings'] == []" "$TMP/type_truncation.json" || fail "a finding left out is in the report"
expect_status 80 "--checks type" -- check type_truncation --checks type
exact_line "mpiguard:   rank 1: MPI_Recv() at $programs/type_truncation.c:19"
python3 -c "
import json, sys
[f] = json.load(open(sys.argv[1]))['findings']
assert (f['kind'], f['severity'], f['ranks']) == ('truncation', 'error', [0, 1]), f
assert f['suggestion'] == 'post a receive at least as long as the message', f" "$TMP/type_truncation.json" || fail "truncation finding"

# Requests of calls no peer completes (issue 28): checked like the others, so no rank says they
# are not, and the handles they reuse are not taken for freed requests (no finding).
expect_status 0 "requests no peer completes" -- check ok_request_unchecked_calls
! grep -q "not checked (never completed" "$TMP/stderr" || fail "a rank says file or generalized requests are not checked"
grep -q "^mpiguard: check: nothing found in 2 of 2 ranks observed (checked: " "$TMP/stderr" || fail "no clean line"
! grep -q "calls the run made that are not checked" "$TMP/stderr" || fail "the clean line names a call check models"
# A call check does not model (Comm_idup): the clean line names it.
expect_status 0 "a call check does not model" -- check ok_comm_idup_unmodelled
grep -q "^mpiguard: check: nothing found in 2 of 2 ranks observed (.*; calls the run made that are not checked: MPI_Comm_idup)$" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "the clean line does not name MPI_Comm_idup"; }
# ... and so do the report's tool_data and its text view; a run that made none lists none
python3 -c "
import json, sys
assert json.load(open(sys.argv[1]))['tool_data']['unmodelled_calls'] == ['MPI_Comm_idup']
assert json.load(open(sys.argv[2]))['tool_data']['unmodelled_calls'] == []" "$TMP/ok_comm_idup_unmodelled.json" "$TMP/ok_request_unchecked_calls.json" || fail "tool_data.unmodelled_calls"
expect_status 0 "text of a report with an unmodelled call" -- "$MPIGUARD" report "$TMP/ok_comm_idup_unmodelled.json"
grep -qxF "calls the run made that are not checked: MPI_Comm_idup" "$TMP/stdout" || { cat "$TMP/stdout" >&2; fail "the text view does not name MPI_Comm_idup"; }
pass "banners, --checks and the html page of real check reports"
