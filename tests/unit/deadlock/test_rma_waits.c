/* Post/start/complete/wait in the wait-for graph (rma_waits.h, issue 28 item 5) over made-up
 * record streams: a wait whose origin is blocked in a receive from the waiter, a start before the
 * target's post, a correct exchange, a post answered without a Win_wait (no lost message), and a
 * Win_start MPI refused. Lock waits (rma_locks.h): a waiter on an exclusive holder blocked in a
 * receive from it (exclusive, shared and Lock_all requests), two shared locks, a holder that
 * unlocks before it receives. */
#include <string.h>

#include "deadlock_detector.h"
#include "dl_stream.h"
#include "lifecycle.h"
#include "mg_test.h"
#include "rma_locks.h"
#include "rma_waits.h"

enum { WIN = 77 }; /* the window's communicator id */

static void open_window(dl_stream *s, int32_t world)
{
    int32_t members[DL_MAX_RANKS];
    for (int32_t r = 0; r < world; r++)
        members[r] = r;
    for (int32_t r = 0; r < world; r++)
        st_split(s, r, CHECK_EVENT_COMM_WORLD, WIN, members, (uint32_t)world);
}

/* Entry (and exit when `exits`) of a PSCW call of rank on the window with group[0..n). */
static void pscw(dl_stream *s, int32_t rank, uint16_t func, const int32_t *group, uint32_t n,
                 int exits)
{
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, rank, func);
    ev.comm = WIN;
    ev.ranks = group;
    ev.n_ranks = n;
    st_feed(s, &ev);
    if (exits) {
        ev = st_event(CHECK_EVENT_EV_EXIT, rank, func);
        ev.comm = WIN;
        st_feed(s, &ev);
    }
}

static void test_roles(void)
{
    rma_waits_role_kind role;
    MG_CHECK(rma_waits_role(CHECK_EVENT_FN_WIN_START, &role) && role.waits);
    MG_CHECK(rma_waits_role(CHECK_EVENT_FN_WIN_WAIT, &role) && role.waits);
    MG_CHECK(rma_waits_role(CHECK_EVENT_FN_WIN_POST, &role) && !role.waits);
    MG_CHECK(rma_waits_role(CHECK_EVENT_FN_WIN_COMPLETE, &role) && !role.waits);
    MG_CHECK(!rma_waits_role(CHECK_EVENT_FN_WIN_FENCE, &role));
    MG_CHECK(!rma_waits_role(CHECK_EVENT_FN_SEND, &role));
}

/* rank 1 posts to 0 and waits; rank 0 starts, then receives from 1 before completing. */
static void test_wait_for_blocked_origin(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    open_window(&s, 2);
    const int32_t zero = 0, one = 1;
    pscw(&s, 1, CHECK_EVENT_FN_WIN_POST, &zero, 1, 1);
    pscw(&s, 1, CHECK_EVENT_FN_WIN_WAIT, &zero, 1, 0);
    pscw(&s, 0, CHECK_EVENT_FN_WIN_START, &one, 1, 1);
    ST_RECV(&s, 0, 1, 0);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const int32_t both[2] = {0, 1};
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK(st_knot_is(f, both, 2));
    MG_CHECK_INT(f->calls[1].func, CHECK_EVENT_FN_WIN_WAIT);
    st_close(&s);
}

/* rank 0 starts an epoch to 1 (blocks: no post yet); rank 1 receives from 0 before posting. */
static void test_start_before_post(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    open_window(&s, 2);
    const int32_t one = 1;
    pscw(&s, 0, CHECK_EVENT_FN_WIN_START, &one, 1, 0);
    ST_RECV(&s, 1, 0, 0);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK(f && f->calls[0].func == CHECK_EVENT_FN_WIN_START);
    st_close(&s);
}

/* A post group of two origins, both complete (one before the target even waits): no finding,
 * the target goes on, and nothing is left as a lost message. Then an epoch ended by Win_test
 * (not recorded): its "completed" message is never reported lost. */
static void test_correct_and_unwaited(void)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    open_window(&s, 3);
    const int32_t zero = 0, origins[2] = {1, 2};
    pscw(&s, 0, CHECK_EVENT_FN_WIN_POST, origins, 2, 1);
    for (int32_t r = 1; r <= 2; r++) {
        pscw(&s, r, CHECK_EVENT_FN_WIN_START, &zero, 1, 1);
        pscw(&s, r, CHECK_EVENT_FN_WIN_COMPLETE, &zero, 1, 1);
    }
    pscw(&s, 0, CHECK_EVENT_FN_WIN_WAIT, origins, 2, 1);
    MG_CHECK_INT(st_check(&s), 0);
    pscw(&s, 0, CHECK_EVENT_FN_WIN_POST, origins, 2, 1);
    for (int32_t r = 1; r <= 2; r++) {
        pscw(&s, r, CHECK_EVENT_FN_WIN_START, &zero, 1, 1);
        pscw(&s, r, CHECK_EVENT_FN_WIN_COMPLETE, &zero, 1, 1);
    }
    for (int32_t r = 0; r < 3; r++) {
        check_event ev = st_event(CHECK_EVENT_EV_ENTER, r, CHECK_EVENT_FN_FINALIZE);
        st_feed(&s, &ev);
    }
    st_check(&s);
    size_t n;
    MG_CHECK(st_find(&s, DL_FINDING_DEADLOCK, &n) == NULL);
    const dl_finding *all = deadlock_detector_findings(s.det, &n);
    for (size_t i = 0; i < n; i++)
        MG_CHECK(all[i].kind != DL_FINDING_LIFECYCLE || all[i].problem != DL_FINDING_LIFECYCLE_MESSAGE_LOST);
    st_close(&s);
}

/* Rank 0's first Win_start is refused by MPI (its exit carries CHECK_EVENT_FLAG_REFUSED): it ends that
 * wait at once and leaves rank 1's one post to the second Win_start, so the exchange ends with no
 * finding (held behind the refused call, the records made a deadlock). */
static void test_refused_start(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    open_window(&s, 2);
    const int32_t zero = 0, one = 1;
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_WIN_START);
    ev.comm = WIN;
    ev.ranks = &one;
    ev.n_ranks = 1;
    st_feed(&s, &ev);
    ev = st_event(CHECK_EVENT_EV_EXIT, 0, CHECK_EVENT_FN_WIN_START);
    ev.comm = WIN;
    ev.flags = CHECK_EVENT_FLAG_REFUSED;
    st_feed(&s, &ev);
    pscw(&s, 0, CHECK_EVENT_FN_WIN_START, &one, 1, 1);
    pscw(&s, 1, CHECK_EVENT_FN_WIN_POST, &zero, 1, 1);
    pscw(&s, 0, CHECK_EVENT_FN_WIN_COMPLETE, &one, 1, 1);
    pscw(&s, 1, CHECK_EVENT_FN_WIN_WAIT, &zero, 1, 1);
    MG_CHECK_INT(st_check(&s), 0);
    MG_CHECK(!deadlock_detector_is_every_live_process_blocked(s.det));
    size_t n;
    MG_CHECK(st_find(&s, DL_FINDING_DEADLOCK, &n) == NULL);
    st_close(&s);
}

/* Entry (and exit, the grant, when `exits`) of Win_lock of target with type, or of Win_lock_all
 * when target is RMA_LOCKS_EVERY_TARGET. */
static void lock(dl_stream *s, int32_t rank, int32_t target, int type, int exits)
{
    uint16_t func = target == RMA_LOCKS_EVERY_TARGET ? CHECK_EVENT_FN_WIN_LOCK_ALL : CHECK_EVENT_FN_WIN_LOCK;
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, rank, func);
    ev.comm = WIN;
    ev.peer = target;
    ev.count = type;
    st_feed(s, &ev);
    if (exits) {
        ev.kind = CHECK_EVENT_EV_EXIT;
        st_feed(s, &ev);
    }
}

/* Rank 0 holds an exclusive lock on rank 1 and receives from 1; rank 1 requests a lock of
 * `type` on itself (or Lock_all): a deadlock of both ranks, rank 1 in its lock call. */
static void lock_cycle(int32_t target, int type)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    open_window(&s, 2);
    lock(&s, 0, 1, RMA_LOCKS_EXCLUSIVE, 1);
    lock(&s, 1, target, type, 0);
    ST_RECV(&s, 0, 1, 0);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const int32_t both[2] = {0, 1};
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK(st_knot_is(f, both, 2));
    MG_CHECK_INT(f->calls[1].func,
                 target == RMA_LOCKS_EVERY_TARGET ? CHECK_EVENT_FN_WIN_LOCK_ALL : CHECK_EVENT_FN_WIN_LOCK);
    st_close(&s);
}

static void test_lock_cycles(void)
{
    lock_cycle(1, RMA_LOCKS_EXCLUSIVE);
    lock_cycle(1, RMA_LOCKS_SHARED);
    lock_cycle(RMA_LOCKS_EVERY_TARGET, RMA_LOCKS_SHARED);
}

/* Two shared locks do not exclude each other: the waiting one is no arc, so no deadlock. */
static void test_shared_locks(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    open_window(&s, 2);
    lock(&s, 0, 1, RMA_LOCKS_SHARED, 1);
    lock(&s, 1, 1, RMA_LOCKS_SHARED, 0);
    ST_RECV(&s, 0, 1, 0);
    MG_CHECK_INT(st_check(&s), 0);
    size_t n;
    MG_CHECK(st_find(&s, DL_FINDING_DEADLOCK, &n) == NULL);
    st_close(&s);
}

/* The holder unlocks before its receive: the waiter's grant (its exit) ends its wait, it sends,
 * and the exchange ends with no finding. */
static void test_holder_unlocks(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    open_window(&s, 2);
    lock(&s, 0, 1, RMA_LOCKS_EXCLUSIVE, 1);
    lock(&s, 1, 1, RMA_LOCKS_EXCLUSIVE, 0);
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_WIN_UNLOCK);
    ev.comm = WIN;
    ev.peer = 1;
    st_feed(&s, &ev);
    ev.kind = CHECK_EVENT_EV_EXIT;
    st_feed(&s, &ev);
    ST_RECV(&s, 0, 1, 0);
    MG_CHECK_INT(st_check(&s), 0);
    ev = st_event(CHECK_EVENT_EV_EXIT, 1, CHECK_EVENT_FN_WIN_LOCK);
    ev.comm = WIN;
    ev.peer = 1;
    ev.count = RMA_LOCKS_EXCLUSIVE;
    st_feed(&s, &ev);
    ST_SEND(&s, 1, 0, 1);
    MG_CHECK_INT(st_check(&s), 0);
    MG_CHECK(!deadlock_detector_is_every_live_process_blocked(s.det));
    size_t n;
    MG_CHECK(st_find(&s, DL_FINDING_DEADLOCK, &n) == NULL);
    st_close(&s);
}

int main(void)
{
    MG_RUN(test_roles);
    MG_RUN(test_wait_for_blocked_origin);
    MG_RUN(test_start_before_post);
    MG_RUN(test_correct_and_unwaited);
    MG_RUN(test_refused_start);
    MG_RUN(test_lock_cycles);
    MG_RUN(test_shared_locks);
    MG_RUN(test_holder_unlocks);
    MG_TEST_END();
}
