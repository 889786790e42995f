#!/bin/bash
# check_runtime.sh FLAVOR CASE: real jobs under `mpiguard check` (or under the capture module with
# the ring dump helper): a deadlock, a clean run, MPI_Abort, a crash, no MPI_Init, the detector
# killed, and the records of a real job decoded and asserted. docs/design/check.md "Tests".
. "$(dirname "$0")/../lib.sh"
flavor=$1 case=$2
: "${PROGS:?}" "${RING_DUMP:?}"
launcher=$(launcher_for "$flavor")
report="$TMP/check.json"

# No process of the job may be left behind (by token, taken from the report's ranks' environment
# would be gone: check the programs by their unique paths instead).
no_leftovers() { [ -z "$(leftovers "$PROGS/$1")" ] || fail "processes of $1 left behind"; }

json() { python3 -c "import json,sys; d=json.load(open('$report')); $1"; }

# dumped_job TOKEN NP PROGRAM [ARGS...]: runs the program under the capture module, the ring dump
# helper reading its records into $TMP/records (the helper's stderr in $TMP/dump.err).
dumped_job() {
    local token=$1 np=$2 dump
    shift 2
    capture_preload_options "$flavor" "$token"
    "$RING_DUMP" "$token" 60 >"$TMP/records" 2>"$TMP/dump.err" &
    dump=$!
    $launcher -n "$np" "${preload_options[@]}" "$@" >/dev/null || fail "the job $* failed"
    wait "$dump" || { cat "$TMP/records" "$TMP/dump.err" >&2; fail "not every stream of $* ended"; }
}

# interrupt PID: SIGINT to the mpiguard started in the background (setsid) as PID, which must end
# within 60 s with the signal's status, 130.
interrupt() {
    kill -INT "$1"
    wait_ended "$1" 60 || { kill -KILL -- -"$1"; fail "mpiguard did not end within 60 s of SIGINT"; }
    wait "$1"
    local status=$?
    [ $status -eq 130 ] || { cat "$TMP/stderr" >&2; fail "mpiguard exited $status after SIGINT, expected 130"; }
}

case $case in
deadlock)
    expect_status 82 "recv-recv deadlock" -- "$MPIGUARD" check --report "$report" -- $launcher -n 2 "$PROGS/rt_recv_recv"
    expect_stderr "mpiguard: ERROR DEADLOCK"
    line=$(grep -n DEADLOCK-LINE "$(dirname "$0")/programs/rt_recv_recv.c" | cut -d: -f1)
    json "
f = d['findings'][0]
assert f['kind'] == 'deadlock', f['kind']
assert f['ranks'] == [0, 1], f['ranks']
assert sorted(f['evidence']['knot']) == [0, 1]
for s in f['sites']:
    assert s['function'] == 'MPI_Recv' and s['file'].endswith('rt_recv_recv.c') and s['line'] == $line, s
assert {e['style'] for e in f['graph']['edges']} == {'solid'}
assert d['job']['outcome'] == 'stopped'
" || fail "report content"
    [ ! -x /usr/bin/dot ] || [ -s "$TMP/check.svg" ] || fail "no SVG next to the report"
    no_leftovers rt_recv_recv
    ;;
clean)
    expect_status 0 "clean ring" -- "$MPIGUARD" check --report "$report" -- $launcher -n 4 "$PROGS/rt_ring" 50
    expect_stderr "mpiguard: check: nothing found in 4 of 4 ranks observed (checked: deadlock, potential_deadlock, stuck_on_terminated, collective_mismatch, type_mismatch"
    # Per rank: Init entry+exit, 50 x (Irecv, Isend, Waitall, Allreduce) x (entry+exit), Finalize.
    json "
t = d['tool_data']
assert d['findings'] == [], d['findings']
assert t['records'] == 4 * (2 + 50 * 8 + 1), t
assert t['records_lost'] == 0 and t['records_rejected'] == 0 and t['ranks_captured'] == 4, t
assert t['detector'] == {'leaves': 0, 'levels': 1}, t
" || fail "report content"
    "$MPIGUARD" report "$report" | grep -q "^detector: one process$" ||
        fail "the text report does not say how the run was checked"
    ;;
abort)
    start=$(date +%s)
    "$MPIGUARD" check --report "$report" -- $launcher -n 2 "$PROGS/rt_abort" >"$TMP/stdout" 2>"$TMP/stderr"
    status=$?
    [ "$status" -ne 0 ] || fail "a job that aborted ended 0"
    [ $(( $(date +%s) - start )) -lt 60 ] || fail "mpiguard took too long after MPI_Abort"
    json "assert d['job']['exit_status'] != 0 and d['tool_data']['ranks_captured'] >= 1" || fail "report"
    no_leftovers rt_abort
    ;;
crash)
    start=$(date +%s)
    "$MPIGUARD" check --report "$report" -- $launcher -n 2 "$PROGS/rt_crash" >"$TMP/stdout" 2>"$TMP/stderr"
    status=$?
    [ "$status" -ne 0 ] || fail "a job with a crashed rank ended 0"
    [ $(( $(date +%s) - start )) -lt 60 ] || fail "mpiguard took too long after a crash"
    json "assert d['job']['exit_status'] != 0 and d['tool_data']['ranks_captured'] == 2" || fail "report"
    no_leftovers rt_crash
    ;;
no_init)
    $launcher -n 1 "$PROGS/rt_no_init" >/dev/null 2>&1
    want=$?
    expect_status "$want" "no MPI_Init" -- "$MPIGUARD" check --report "$report" -- $launcher -n 1 "$PROGS/rt_no_init"
    grep -q "no MPI here" "$TMP/stdout" || fail "the application's output is missing"
    ;;
ring_full)
    # 4 KiB rings hold about 24 records: Open MPI's ranks fill them between two drains and must
    # wait for the reader rather than drop a record. MPICH's oversubscribed ranks lose ~10 ms per
    # blocking call (docs/design/platform-notes.md) and do not fill them: there every record must still arrive.
    if [ "$flavor" = openmpi ]; then ring=(-x MPIGUARD_RING_BYTES=4096); else ring=(-genv MPIGUARD_RING_BYTES 4096); fi
    expect_status 0 "small rings" -- "$MPIGUARD" check --report "$report" -- $launcher -n 4 "${ring[@]}" "$PROGS/rt_ring" 200
    json "
t = d['tool_data']
assert t['records'] == 4 * (2 + 200 * 8 + 1), t
assert t['records_lost'] == 0, t
assert '$flavor' != 'openmpi' or t['full_ring_waits'] > 0, t
" || fail "report content"
    ;;
detector_killed)
    # Small rings, so the ranks meet a full ring once the reader is gone: they must go on.
    if [ "$flavor" = openmpi ]; then ring=(-x MPIGUARD_RING_BYTES=4096); else ring=(-genv MPIGUARD_RING_BYTES 4096); fi
    "$MPIGUARD" check -- $launcher -n 2 "${ring[@]}" "$PROGS/rt_ring" 301 10000 >"$TMP/stdout" 2>"$TMP/stderr" &
    tool=$!
    for _ in $(seq 50); do [ -n "$(leftovers "$PROGS/rt_ring 301")" ] && break; sleep 0.1; done
    [ -n "$(leftovers "$PROGS/rt_ring 301")" ] || fail "the job did not start"
    sleep 1
    kill -9 "$tool"
    for _ in $(seq 120); do [ -z "$(leftovers "$PROGS/rt_ring 301")" ] && break; sleep 0.5; done
    [ -z "$(leftovers "$PROGS/rt_ring 301")" ] || fail "the ranks hang once the detector is gone"
    ;;
potential)
    expect_status 80 "send-send" -- "$MPIGUARD" check --report "$report" -- $launcher -n 2 "$PROGS/rt_send_send"
    expect_stderr "mpiguard: WARNING POTENTIAL_DEADLOCK"
    line=$(grep -n POTENTIAL-LINE "$(dirname "$0")/programs/rt_send_send.c" | cut -d: -f1)
    json "
f = d['findings'][0]
assert f['kind'] == 'potential_deadlock' and f['severity'] == 'warning' and f['ranks'] == [0, 1], f
assert all(s['function'] == 'MPI_Send' and s['line'] == $line for s in f['sites']), f['sites']
assert d['job']['exit_status'] == 0 and d['job']['outcome'] == 'completed', d['job']
" || fail "report content"
    ;;
mismatch)
    expect_status 80 "bcast roots" -- "$MPIGUARD" check --report "$report" -- $launcher -n 2 "$PROGS/rt_bcast_roots"
    expect_stderr "mpiguard: ERROR COLLECTIVE_MISMATCH"
    line=$(grep -n MISMATCH-LINE "$(dirname "$0")/programs/rt_bcast_roots.c" | cut -d: -f1)
    json "
f = d['findings'][0]
assert f['kind'] == 'collective_mismatch' and sorted(f['ranks']) == [0, 1], f
assert f['evidence']['mismatch'] == ['root'], f['evidence']
assert all(s['function'] == 'MPI_Bcast' for s in f['sites']), f['sites']
# The job goes on after a mismatch: a rank may end before its call site was resolved (file null).
resolved = [s for s in f['sites'] if s['file']]
assert resolved and all(s['line'] == $line for s in resolved), f['sites']
" || fail "report content"
    ;;
agents)
    # Two agent processes, each owning half of the ranks, stream to the detector over loopback TCP.
    expect_status 0 "clean ring, 2 agents" -- "$MPIGUARD" check --agents 2 --report "$report" -- $launcher -n 4 "$PROGS/rt_ring" 30
    json "
t = d['tool_data']
assert t['agents'] == 2 and t['ranks_captured'] == 4 and t['records'] == 4 * (2 + 30 * 8 + 1), t
" || fail "clean report"
    expect_status 82 "deadlock, 2 agents" -- "$MPIGUARD" check --agents 2 --report "$report" -- $launcher -n 2 "$PROGS/rt_recv_recv"
    json "
f = d['findings'][0]
assert f['kind'] == 'deadlock' and f['ranks'] == [0, 1], f
assert all(s['file'].endswith('rt_recv_recv.c') and s['line'] > 0 for s in f['sites']), f['sites']
" || fail "deadlock report"
    ;;
records)
    dumped_job "rt$$" 4 "$PROGS/rt_records"
    python3 - "$TMP/records" <<'PY' || fail "record content"
import sys
recs, ends = [], {}
for line in open(sys.argv[1]):
    w = line.split()
    if w[0] == 'end':
        ends[int(w[1])] = (int(w[2]), int(w[3]))
        continue
    r = dict(rank=int(w[1]), seq=int(w[2]), kind=int(w[3]), fn=w[4], peer=int(w[5]), tag=int(w[6]),
             comm=w[7], req=int(w[8]), aux=w[9], root=int(w[10]), nreq=int(w[12]), nst=int(w[13]),
             src=int(w[14]), stag=int(w[15]), count=int(w[16]), ranks=[int(x) for x in w[17:]])
    recs.append(r)
assert ends == {r: (1, 0) for r in range(4)}, ends          # all finalized, nothing lost
for rank in range(4):
    seqs = [r['seq'] for r in recs if r['rank'] == rank]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs), rank
def one(rank, fn, kind):
    m = [r for r in recs if r['rank'] == rank and r['fn'] == fn and r['kind'] == kind]
    assert len(m) == 1, (rank, fn, kind, m)
    return m[0]
e, x = one(0, 'MPI_RECV', 1), one(0, 'MPI_RECV', 2)
assert (e['peer'], e['tag']) == (-1, -1), e                  # ANY_SOURCE, ANY_TAG
assert (x['nst'], x['src'], x['stag']) == (1, 1, 9), x       # the decision, though ignored
s = one(1, 'MPI_SEND', 1)
assert (s['peer'], s['tag']) == (0, 9), s
split = {r: one(r, 'MPI_COMM_SPLIT', 2) for r in range(4)}
assert split[0]['ranks'] == [1, 0] and split[2]['ranks'] == [3, 2], split
assert split[0]['aux'] == split[1]['aux'] != split[2]['aux'] == split[3]['aux'], split
assert int(split[0]['aux'], 16) > 1
b0, b2 = one(0, 'MPI_BCAST', 1), one(2, 'MPI_BCAST', 1)
assert b0['root'] == 1 and b2['root'] == 3 and b0['comm'] == split[0]['aux'], (b0, b2)
i = one(0, 'MPI_ISEND', 1)
w = one(0, 'MPI_WAIT', 1)
assert i['req'] != 0 and w['nreq'] == 1, (i, w)
irecv, te, tx = one(2, 'MPI_IRECV', 1), one(2, 'MPI_TEST', 1), one(2, 'MPI_TEST', 2)
assert te['seq'] + 1 == tx['seq'] and te['nreq'] == 1, (te, tx)
assert (tx['nst'], tx['src'], tx['stag']) == (1, 3, 4), tx   # the one Test that completed it
assert one(0, 'MPI_FINALIZE', 1)['kind'] == 1
print("records ok:", len(recs))
PY
    ;;
failed_status)
    # A completion that fails keeps its status's source and tag in the record only where MPI sets
    # them: a truncation's (the message matched), not a failed generalized request's (its query
    # function filled 12345 and 777: the standard defines no field after that error).
    dumped_job "fs$$" 2 "$PROGS/rt_failed_status"
    exits=$(awk '$1 == "rec" && $2 == 1 && $4 == 2 && $5 == "MPI_WAITANY" {print $14, $15, $16}' \
        "$TMP/records" | paste -sd,)
    [ "$exits" = "1 0 5,1 -2 -1" ] || fail "rank 1's Waitany exits (statuses, source, tag): $exits"
    ;;
caller_sites)
    # Only a process with the MPI's C++ bindings walks to its caller's site on each record (the
    # C++ bindings' -O0 call site, docs/cli.md "Languages"): none of the records of rt_ring (C,
    # -O0, frame pointers kept, where the walk would succeed) carries one; the C++ ring (-O0,
    # tests/cxx) carries them.
    caller_sites() { # np program args...
        dumped_job "cs$$$(basename "$2")" "$@"
        [ "$(grep -c '^rec ' "$TMP/records")" -gt 0 ] || fail "no record of $*"
        sed -n 's/^caller_sites //p' "$TMP/dump.err"
    }
    c=$(caller_sites 2 "$PROGS/rt_ring" 5)
    [ "$c" = 0 ] || fail "$c records of the C program rt_ring carry a caller's site"
    cxx=$(caller_sites 3 "$BUILD/tests/cxx/$flavor/ring")
    [ -n "$cxx" ] && [ "$cxx" -gt 0 ] || fail "no record of the C++ ring carries a caller's site ($cxx)"
    ;;
records_c)
    # MPICH only (Open MPI 4.1.4 has no `_c` functions): each call of rt_records_c's `_c` round
    # must give the record its int round gave (docs/design/check.md "Capture"), with the protection
    # module on too and acting on MPI_Bcast_c (bounded at 8 elements, the `_c` forms only).
    token="rtc$$"
    lib="$BUILD/lib/libmpiguard-$flavor.so"
    "$RING_DUMP" "$token" 60 >"$TMP/records" &
    dump=$!
    $launcher -n 2 -genv LD_PRELOAD "$lib" -genv MPIGUARD_JOB_TOKEN $token \
        -genv MPIGUARD_MODULES capture:protect -genv MPIGUARD_PROTECT_ARTIFICIAL "n 8 large" \
        -genv MPIGUARD_PROTECT_WORKAROUND W1B "$PROGS/rt_records_c" 2>"$TMP/stderr" ||
        { cat "$TMP/stderr" >&2; fail "the job failed"; }
    wait "$dump" || { cat "$TMP/records" >&2; fail "not every stream ended"; }
    grep -q "protect: MPI_Bcast_c at .*workaround W1-B" "$TMP/stderr" ||
        { cat "$TMP/stderr" >&2; fail "the protection module did not act on MPI_Bcast_c"; }
    grep -q "protect: MPI_Bcast at" "$TMP/stderr" && fail "the int MPI_Bcast was protected"
    python3 - "$TMP/records" <<'PY' || { cat "$TMP/records" >&2; fail "record content"; }
import sys
streams, ends = {0: [], 1: []}, {}
for line in open(sys.argv[1]):
    w = line.split()
    if w[0] == 'end':
        ends[int(w[1])] = (int(w[2]), int(w[3]))
    else:
        streams[int(w[1])].append(w)
assert ends == {0: (1, 0), 1: (1, 0)}, ends                 # both finalized, nothing lost
def rounds(recs):
    # Init's two records, then each round up to and including its Barrier's exit.
    out, cur = [], []
    for w in recs[2:]:
        cur.append(w)
        if w[4] == 'MPI_BARRIER' and w[3] == '2':
            out.append(cur)
            cur = []
    return out
def normal(recs, rank):
    # Every field but the sequence number; request and message ids (0: none) by order of
    # appearance, as the rounds' ids differ. A Wait's status is compared only where it completes
    # a receive (every Wait follows the call that started its request): MPI leaves the source
    # and tag of a send's or a collective's status undefined (MPICH leaves what was there).
    ids, out, started = {}, [], None
    for w in recs:
        v = w[3:]
        for i in (8 - 3, 9 - 3):
            if v[i] != '0':
                v[i] = ids.setdefault((i, v[i]), 'id%d' % len(ids))
        if w[4] != 'MPI_WAIT':
            started = w[4]
        elif not (started in ('MPI_IRECV', 'MPI_IMRECV') or (started == 'MPI_START' and rank == 1)):
            v[14 - 3] = v[15 - 3] = 'undefined'
        out.append(v)
    return out
for rank, recs in streams.items():
    r = rounds(recs)
    assert len(r) == 2, (rank, len(r))
    a, b = normal(r[0], rank), normal(r[1], rank)
    assert len(a) == len(b) and a == b, (rank, [(x, y) for x, y in zip(a, b) if x != y], len(a), len(b))
    fns = {w[4] for w in r[1]}
    want = {'MPI_SENDRECV', 'MPI_SENDRECV_REPLACE', 'MPI_BCAST', 'MPI_IBCAST', 'MPI_REDUCE',
            'MPI_ALLREDUCE', 'MPI_GATHER', 'MPI_REDUCE_SCATTER_BLOCK', 'MPI_SCAN', 'MPI_EXSCAN',
            'MPI_IALLREDUCE', 'MPI_SCATTERV', 'MPI_ALLGATHERV', 'MPI_ALLTOALLV', 'MPI_ALLTOALLW',
            'MPI_IALLTOALLW'}
    want |= {'MPI_SEND', 'MPI_SSEND', 'MPI_ISEND', 'MPI_SEND_INIT'} if rank == 0 else \
            {'MPI_RECV', 'MPI_IRECV', 'MPI_RECV_INIT', 'MPI_MRECV', 'MPI_IMRECV'}
    assert want <= fns, (rank, want - fns)
    bcast = [w for w in r[1] if w[4] == 'MPI_BCAST']
    assert len(bcast) == 2 and bcast[0][16] == '64', bcast   # one call (not W1B's pieces), 64
print("records_c ok:", len(streams[0]), len(streams[1]))
PY
    ;;
interrupted)
    # SIGINT to mpiguard alone (a batch system's signal; Ctrl-C reaches the whole process group):
    # mpiguard passes it to the job, and the ranks that end of it did not vanish on their own, so
    # nobody is "stuck on a terminated rank".
    setsid "$MPIGUARD" check --report "$report" -- $launcher -n 3 "$PROGS/rt_ring" 1000000 100 \
        >"$TMP/stdout" 2>"$TMP/stderr" &
    guard=$!
    for _ in $(seq 100); do
        [ -s "$report" ] || [ -n "$(leftovers "$PROGS/rt_ring 1000000")" ] && break
        sleep 0.1
    done
    sleep 3
    interrupt "$guard"
    expect_stderr "check: interrupted by signal 2 (Interrupt): the job was stopped; nothing found up to then"
    ! grep -q "ERROR" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "a finding made of the interruption"; }
    json "
assert d['findings'] == [], [f['kind'] for f in d['findings']]
assert d['job']['outcome'] == 'interrupted', d['job']
" || fail "report content"
    sleep 0.3
    no_leftovers "rt_ring 1000000"
    ;;
interrupted_mismatch)
    # SIGINT to mpiguard soon after a collective mismatch both ranks then wait in: the finding,
    # held for a second in case MPI refuses a call (COLL_FINDINGS_REFUSAL_NS), is reported at the
    # end of the interrupted job, when no refusal can come any more.
    marker="$TMP/reducing"
    setsid "$MPIGUARD" check --report "$report" -- $launcher -n 2 "$PROGS/rt_reduce_roots" \
        "$marker" >"$TMP/stdout" 2>"$TMP/stderr" &
    guard=$!
    for _ in $(seq 600); do [ -e "$marker" ] && break; sleep 0.05; done
    [ -e "$marker" ] || { kill -INT "$guard"; wait $guard; fail "rank 0 never reached its MPI_Reduce"; }
    sleep 0.2
    interrupt "$guard"
    expect_stderr "mpiguard: ERROR COLLECTIVE_MISMATCH"
    line=$(grep -n MISMATCH-LINE "$(dirname "$0")/programs/rt_reduce_roots.c" | cut -d: -f1)
    json "
kinds = [f['kind'] for f in d['findings']]
assert kinds == ['collective_mismatch'], kinds
f = d['findings'][0]
assert sorted(f['ranks']) == [0, 1] and f['evidence']['mismatch'] == ['root'], f
assert all(s['function'] == 'MPI_Reduce' and s['line'] == $line for s in f['sites']), f['sites']
assert d['job']['outcome'] == 'interrupted', d['job']
" || { cat "$TMP/stderr" >&2; fail "report content"; }
    sleep 0.3
    no_leftovers rt_reduce_roots
    ;;
leaves)
    # A tree of detectors (--detector-leaves 2: ranks 0-1 and 2-3 each under an agent and a leaf
    # process) on real jobs; the deadlocks of the suite run with it in check_leaves_* (run_program.sh).
    for k in 0 5; do
        expect_status 64 "--detector-leaves $k" -- "$MPIGUARD" check --detector-leaves $k -- $launcher -n 4 "$PROGS/rt_ring" 3
    done
    expect_stderr "more than the job's 4 ranks"
    ! grep -q "is not observed" "$TMP/stderr" || fail "ranks of a job stopped for --detector-leaves 5 called unobserved"
    expect_status 0 "clean ring, 2 leaves" -- "$MPIGUARD" check --detector-leaves 2 --report "$report" -- $launcher -n 4 "$PROGS/rt_ring" 30
    expect_stderr "mpiguard: check: nothing found in 4 of 4 ranks observed"
    json "
t = d['tool_data']
assert t['ranks_captured'] == 4 and t['records_lost'] == 0 and t['records_rejected'] == 0, t
assert t['detector'] == {'leaves': 2, 'levels': 2}, t
" || fail "clean report"
    "$MPIGUARD" report "$report" | grep -q "^detector: a tree of 2 levels, 2 leaves under the root$" ||
        fail "the text report does not say how the run was checked"
    # Every rank names another root: the calls disagree inside each leaf and across them.
    expect_status 80 "bcast roots, 2 leaves" -- "$MPIGUARD" check --detector-leaves 2 --report "$report" -- $launcher -n 4 "$PROGS/rt_bcast_roots"
    expect_stderr "mpiguard: ERROR COLLECTIVE_MISMATCH"
    json "
f = d['findings'][0]
assert f['kind'] == 'collective_mismatch' and sorted(f['ranks']) == [0, 1, 2, 3], f
assert f['evidence']['mismatch'] == ['root'], f['evidence']
" || fail "mismatch report"
    # Leaf 1 killed mid-run: its ranks are named unobserved, the job stopped, never a clean line.
    "$MPIGUARD" check --detector-leaves 2 --report "$report" -- $launcher -n 4 "$PROGS/rt_ring" 1000000 20 \
        >"$TMP/stdout" 2>"$TMP/stderr" &
    tool=$!
    for _ in $(seq 300); do
        leaf=$(pgrep -P $tool -f "agent stage --share 1 --shares 2" || true)
        # the ranks themselves (mpiguard's own command line names the program too)
        [ -n "$leaf" ] && [ "$(pgrep -c -x rt_ring)" -ge 4 ] && break
        sleep 0.1
    done
    [ -n "$leaf" ] || fail "no leaf process under mpiguard"
    sleep 2
    kill -KILL "$leaf"
    wait_ended $tool 60 || { kill -KILL $tool; fail "mpiguard did not end within 60 s of the leaf's loss"; }
    wait $tool
    status=$?
    [ $status -eq 83 ] || { cat "$TMP/stderr" >&2; fail "exit $status after a leaf was killed, expected 83"; }
    expect_stderr "leaf 1 of the tree of detectors (ranks 2-3) was lost"
    expect_stderr "rank 2 (pid [0-9]* on .*) is not observed"
    expect_stderr "rank 3 (pid [0-9]* on .*) is not observed"
    ! grep -q "nothing found" "$TMP/stderr" || fail "a run with a lost leaf was called clean"
    sleep 0.3
    no_leftovers "rt_ring 1000000"
    ;;
*) fail "unknown case $case" ;;
esac
pass "check $case $flavor"
