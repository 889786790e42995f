/* Calls MPI refused (their exit carries CHECK_EVENT_FLAG_REFUSED) after the detector matched them
 * at their entry: the message or receive they matched is given back in MPI's non-overtaking order,
 * and the later call that really takes it completes (no false deadlock, lost message or
 * truncation); a refused collective's arrival leaves its slot to the rank's next call. Issue 28,
 * call_model.c, p2p_match_withdraw and coll_match_withdraw. */
#include "dl_stream.h"
#include "usage_args.h"

/* Entry (exit too when `exits`) of a point-to-point call of rank on WORLD carrying a message of
 * `elems` basic elements of one type, `type` (0, 1: signatures the matcher tells apart), tag 0. */
static void typed_call(dl_stream *s, int32_t rank, uint16_t func, int32_t peer, uint64_t request,
                       uint64_t elems, int type, int exits)
{
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, rank, func);
    ev.peer = peer;
    ev.request = request;
    ev.count = (int64_t)elems;
    ev.type_hash = 0x5000u + 0x100u * (uint64_t)type + elems;
    ev.type_elems = elems;
    ev.type_period = 1u + (uint32_t)type;
    ev.flags = CHECK_EVENT_FLAG_TYPE_UNIFORM;
    st_feed(s, &ev);
    if (exits) {
        ev.kind = CHECK_EVENT_EV_EXIT;
        st_feed(s, &ev);
    }
}

static void msg_call(dl_stream *s, int32_t rank, uint16_t func, int32_t peer, uint64_t request,
                     uint64_t elems, int exits)
{
    typed_call(s, rank, func, peer, request, elems, 0, exits);
}

/* Entry of rank's Start (one request) or Startall (n). */
static void start(dl_stream *s, int32_t rank, const uint64_t *reqs, uint32_t n)
{
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, rank,
                              n == 1 ? CHECK_EVENT_FN_START : CHECK_EVENT_FN_STARTALL);
    if (n == 1) {
        ev.request = reqs[0];
    } else {
        ev.requests = reqs;
        ev.n_requests = n;
    }
    st_feed(s, &ev);
}

/* The exit of rank's Startall (n requests) that MPI refused. */
static void refused_startall(dl_stream *s, int32_t rank, const uint64_t *reqs, uint32_t n)
{
    check_event ev = st_event(CHECK_EVENT_EV_EXIT, rank, CHECK_EVENT_FN_STARTALL);
    ev.requests = reqs;
    ev.n_requests = n;
    ev.flags = CHECK_EVENT_FLAG_REFUSED;
    st_feed(s, &ev);
}

/* The exit of rank's call func that MPI refused (request: a nonblocking call's). */
static void refused_exit(dl_stream *s, int32_t rank, uint16_t func, uint64_t request)
{
    check_event ev = st_event(CHECK_EVENT_EV_EXIT, rank, func);
    ev.request = request;
    ev.flags = CHECK_EVENT_FLAG_REFUSED;
    st_feed(s, &ev);
}

static deadlock_detector_queues sizes(const dl_stream *s)
{
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(s->det, &q);
    return q;
}

/* Every rank finalizes; the analysis then finds nothing at all. */
static void finalize_clean(dl_stream *s, int32_t world)
{
    for (int32_t r = 0; r < world; r++) {
        check_event ev = st_event(CHECK_EVENT_EV_ENTER, r, CHECK_EVENT_FN_FINALIZE);
        st_feed(s, &ev);
    }
    st_check(s);
    size_t n;
    deadlock_detector_findings(s->det, &n);
    MG_CHECK_INT(n, 0);
}

/* Rank 1 leaves its receive from rank 0, rank 0 its send, and both finalize cleanly. */
static void recv_and_send_leave(dl_stream *s)
{
    st_recv_exit(s, 1, CHECK_EVENT_FN_RECV, 0, 0);
    check_event ev = st_event(CHECK_EVENT_EV_EXIT, 0, CHECK_EVENT_FN_SEND);
    st_feed(s, &ev);
    finalize_clean(s, 2);
}

/* Rank 1's receive matched rank 0's blocking send, then MPI refused it: the send waits again
 * (rank 0 blocked) until rank 1's next receive takes it. */
static void test_refused_recv_gives_back_send(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    msg_call(&s, 0, CHECK_EVENT_FN_SEND, 1, 0, 4, 0);
    msg_call(&s, 1, CHECK_EVENT_FN_RECV, 0, 0, 4, 0);
    MG_CHECK_INT(sizes(&s).blocked_processes, 0);
    refused_exit(&s, 1, CHECK_EVENT_FN_RECV, 0);
    deadlock_detector_queues q = sizes(&s);
    MG_CHECK_INT(q.queued_sends, 1);
    MG_CHECK_INT(q.blocked_processes, 1);
    msg_call(&s, 1, CHECK_EVENT_FN_RECV, 0, 0, 4, 0);
    q = sizes(&s);
    MG_CHECK_INT(q.queued_sends + q.pending_recvs + q.blocked_processes, 0);
    recv_and_send_leave(&s);
    st_close(&s);
}

/* Rank 0 buffers two messages of 4 and 8 elements; rank 1's refused receive matched the first.
 * Given back, it is taken before the second (non-overtaking): the next receive of 4 gets 4, not
 * 8 (a truncation), and the one of 8 gets 8. */
static void test_given_back_before_later_messages(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    msg_call(&s, 0, CHECK_EVENT_FN_BSEND, 1, 0, 4, 1);
    msg_call(&s, 0, CHECK_EVENT_FN_BSEND, 1, 0, 8, 1);
    msg_call(&s, 1, CHECK_EVENT_FN_RECV, 0, 0, 4, 0);
    refused_exit(&s, 1, CHECK_EVENT_FN_RECV, 0);
    MG_CHECK_INT(sizes(&s).queued_sends, 2);
    msg_call(&s, 1, CHECK_EVENT_FN_RECV, 0, 0, 4, 1);
    msg_call(&s, 1, CHECK_EVENT_FN_RECV, 0, 0, 8, 1);
    MG_CHECK_INT(sizes(&s).queued_sends, 0);
    finalize_clean(&s, 2);
    st_close(&s);
}

/* Rank 0's send (standard, buffered, or an Ibsend with request `request`) matched rank 1's waiting
 * receive, then MPI refused it: the receive waits again (rank 1 blocked), no request is left, and
 * the receive takes rank 0's next send, which is no lost message. */
static void refused_send_gives_back_recv(uint16_t func, uint64_t request)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    msg_call(&s, 1, CHECK_EVENT_FN_RECV, 0, 0, 4, 0);
    msg_call(&s, 0, func, 1, request, 4, 0);
    MG_CHECK_INT(sizes(&s).blocked_processes, 0);
    refused_exit(&s, 0, func, request);
    deadlock_detector_queues q = sizes(&s);
    MG_CHECK_INT(q.pending_recvs, 1);
    MG_CHECK_INT(q.blocked_processes, 1);
    MG_CHECK_INT(q.live_requests, 0);
    msg_call(&s, 0, CHECK_EVENT_FN_SEND, 1, 0, 4, 1);
    q = sizes(&s);
    MG_CHECK_INT(q.queued_sends + q.pending_recvs + q.blocked_processes, 0);
    st_recv_exit(&s, 1, CHECK_EVENT_FN_RECV, 0, 0);
    finalize_clean(&s, 2);
    st_close(&s);
}

static void test_refused_send_gives_back_recv(void)
{
    refused_send_gives_back_recv(CHECK_EVENT_FN_SEND, 0);
    refused_send_gives_back_recv(CHECK_EVENT_FN_BSEND, 0);
    refused_send_gives_back_recv(CHECK_EVENT_FN_IBSEND,
                                 5); /* its op is the request's until the exit */
}

/* Rank 0's send A (`func`) matched rank 1's receive of 4; MPI refused A, and rank 1's receive took
 * rank 0's next send B. The agent read rank 1's completion (its Recv's exit, or with `wait` its
 * Irecv's Wait) and rank 1's next receive, of 2, before rank 0's refused exit. The receive given
 * back takes B and the receive of 2 takes C: no truncation, lost message or stuck receive. */
static void partner_completed_before_refusal(uint16_t func, int wait)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    const uint64_t req = 6;
    msg_call(&s, 1, wait ? CHECK_EVENT_FN_IRECV : CHECK_EVENT_FN_RECV, 0, wait ? req : 0, 4, wait);
    msg_call(&s, 0, func, 1, 0, 4, 0);
    if (wait) {
        check_event_status st = {0, 0, 0, 0, 1};
        st_wait_enter(&s, 1, CHECK_EVENT_FN_WAIT, &req, 1);
        st_wait_exit(&s, 1, CHECK_EVENT_FN_WAIT, &req, 1, &st, 1, 1);
    } else {
        st_recv_exit(&s, 1, CHECK_EVENT_FN_RECV, 0, 0);
    }
    msg_call(&s, 1, CHECK_EVENT_FN_RECV, 0, 0, 2, 0);
    refused_exit(&s, 0, func, 0);
    msg_call(&s, 0, CHECK_EVENT_FN_SEND, 1, 0, 4, 1);
    msg_call(&s, 0, CHECK_EVENT_FN_SEND, 1, 0, 2, 0);
    deadlock_detector_queues q = sizes(&s);
    MG_CHECK_INT(q.queued_sends + q.pending_recvs + q.blocked_processes + q.live_requests, 0);
    recv_and_send_leave(&s);
    st_close(&s);
}

static void test_partner_completed_before_refusal(void)
{
    for (int wait = 0; wait < 2; wait++) {
        partner_completed_before_refusal(CHECK_EVENT_FN_BSEND, wait);
        partner_completed_before_refusal(CHECK_EVENT_FN_SEND, wait);
    }
}

/* When nothing else comes, the receive a refused send gave back is found stuck: rank 1 waits for
 * rank 0, which finalized. */
static void test_given_back_recv_stuck(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    msg_call(&s, 1, CHECK_EVENT_FN_RECV, 0, 0, 4, 0);
    msg_call(&s, 0, CHECK_EVENT_FN_SEND, 1, 0, 4, 0);
    refused_exit(&s, 0, CHECK_EVENT_FN_SEND, 0);
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_FINALIZE);
    st_feed(&s, &ev);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_STUCK_ON_TERMINATED, &n);
    MG_CHECK(f && f->n_calls == 2 && f->calls[0].rank == 0);
    MG_CHECK(f && f->calls[1].rank == 1 && f->calls[1].func == CHECK_EVENT_FN_RECV);
    st_close(&s);
}

/* A nonblocking post MPI refused made no request: what its op matched at entry (rank 0's send, or
 * rank 1's receive) is given back to the next blocking call, and the request is not reported
 * pending at Finalize. */
static void test_refused_nonblocking_post(void)
{
    for (int irecv = 0; irecv < 2; irecv++) {
        dl_stream s;
        st_open(&s, 2, NULL);
        int32_t poster = irecv ? 1 : 0, other = 1 - poster;
        uint16_t func = irecv ? CHECK_EVENT_FN_IRECV : CHECK_EVENT_FN_ISEND;
        msg_call(&s, other, irecv ? CHECK_EVENT_FN_SEND : CHECK_EVENT_FN_RECV, poster, 0, 4, 0);
        msg_call(&s, poster, func, other, 7, 4, 0);
        refused_exit(&s, poster, func, 7);
        deadlock_detector_queues q = sizes(&s);
        MG_CHECK_INT(q.live_requests, 0);
        MG_CHECK_INT(q.blocked_processes, 1);
        msg_call(&s, poster, irecv ? CHECK_EVENT_FN_RECV : CHECK_EVENT_FN_SEND, other, 0, 4, 1);
        check_event ev = st_event(CHECK_EVENT_EV_EXIT, other,
                                  irecv ? CHECK_EVENT_FN_SEND : CHECK_EVENT_FN_RECV);
        st_feed(&s, &ev);
        finalize_clean(&s, 2);
        st_close(&s);
    }
}

/* Rank 2's refused MPI_ANY_SOURCE Irecv, undecided with rank 0's message queued, deferred the
 * receive posted after it: refused, it lifts that deferral and the receive takes the message. */
static void test_refused_wildcard_post(void)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    msg_call(&s, 0, CHECK_EVENT_FN_BSEND, 2, 0, 4, 1);
    msg_call(&s, 2, CHECK_EVENT_FN_IRECV, CHECK_EVENT_ANY_SOURCE, 5, 4, 0);
    MG_CHECK_INT(sizes(&s).undecided, 1);
    refused_exit(&s, 2, CHECK_EVENT_FN_IRECV, 5);
    MG_CHECK_INT(sizes(&s).undecided, 0);
    msg_call(&s, 2, CHECK_EVENT_FN_RECV, 0, 0, 4, 0);
    deadlock_detector_queues q = sizes(&s);
    MG_CHECK_INT(q.queued_sends + q.pending_recvs + q.blocked_processes, 0);
    st_recv_exit(&s, 2, CHECK_EVENT_FN_RECV, 0, 0);
    finalize_clean(&s, 3);
    st_close(&s);
}

/* Deciding mode forced rank 2's MPI_ANY_SOURCE receive to take rank 0's message (the first
 * queued) while rank 1's send waited too; then MPI refused the receive (refused_recv) or rank 0's
 * send. What the refused call matched is given back: the decided receive waits for rank 0's next
 * message, or rank 0's message goes to rank 2's next receive from 0. */
static void refused_after_forced_decision(int refused_recv)
{
    dl_params prm;
    dl_params_default(&prm);
    prm.probing = 0;
    prm.decide_backlog = 0;
    dl_stream s;
    st_open(&s, 3, &prm);
    msg_call(&s, 0, CHECK_EVENT_FN_SEND, 2, 0, 4, 0);
    msg_call(&s, 1, CHECK_EVENT_FN_SEND, 2, 0, 4, 0);
    msg_call(&s, 2, CHECK_EVENT_FN_RECV, CHECK_EVENT_ANY_SOURCE, 0, 4, 0);
    check_event ev = st_event(CHECK_EVENT_EV_EXIT, 1, CHECK_EVENT_FN_SEND);
    st_feed(&s, &ev); /* held behind rank 1's send: the backlog forces the decision */
    MG_CHECK_INT(sizes(&s).undecided, 0);
    MG_CHECK_INT(sizes(&s).queued_sends, 1);
    refused_exit(&s, refused_recv ? 2 : 0, refused_recv ? CHECK_EVENT_FN_RECV : CHECK_EVENT_FN_SEND,
                 0);
    if (refused_recv) {
        MG_CHECK_INT(sizes(&s).queued_sends, 2);
        msg_call(&s, 2, CHECK_EVENT_FN_RECV, 0, 0, 4, 1);
        ev = st_event(CHECK_EVENT_EV_EXIT, 0, CHECK_EVENT_FN_SEND);
        st_feed(&s, &ev);
    } else {
        MG_CHECK_INT(sizes(&s).pending_recvs, 1);
        msg_call(&s, 0, CHECK_EVENT_FN_SEND, 2, 0, 4, 1);
        st_recv_exit(&s, 2, CHECK_EVENT_FN_RECV, 0, 0);
    }
    msg_call(&s, 2, CHECK_EVENT_FN_RECV, 1, 0, 4, 1);
    MG_CHECK_INT(sizes(&s).queued_sends + sizes(&s).blocked_processes, 0);
    finalize_clean(&s, 3);
    st_close(&s);
}

static void test_refused_after_forced_decision(void)
{
    refused_after_forced_decision(1);
    refused_after_forced_decision(0);
}

/* Rank 0's persistent send (standard, or buffered: Bsend_init) is started while rank 1's receive
 * waits, and MPI refuses the Start: the receive waits again and the send is not left posted (the
 * request is inactive), so rank 0's next send is taken, and is no lost message. */
static void refused_start_gives_back_recv(uint16_t init)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    const uint64_t req = 9;
    msg_call(&s, 1, CHECK_EVENT_FN_RECV, 0, 0, 4, 0);
    msg_call(&s, 0, init, 1, req, 4, 1);
    start(&s, 0, &req, 1);
    MG_CHECK_INT(sizes(&s).blocked_processes, 0);
    refused_exit(&s, 0, CHECK_EVENT_FN_START, req);
    deadlock_detector_queues q = sizes(&s);
    MG_CHECK_INT(q.pending_recvs, 1);
    MG_CHECK_INT(q.blocked_processes, 1);
    MG_CHECK_INT(q.queued_sends, 0);
    msg_call(&s, 0, CHECK_EVENT_FN_REQUEST_FREE, CHECK_EVENT_PROC_NULL, req, 0, 1);
    msg_call(&s, 0, CHECK_EVENT_FN_SEND, 1, 0, 4, 1);
    q = sizes(&s);
    MG_CHECK_INT(q.queued_sends + q.pending_recvs + q.blocked_processes + q.live_requests, 0);
    st_recv_exit(&s, 1, CHECK_EVENT_FN_RECV, 0, 0);
    finalize_clean(&s, 2);
    st_close(&s);
}

static void test_refused_start_gives_back_recv(void)
{
    refused_start_gives_back_recv(CHECK_EVENT_FN_SEND_INIT);
    refused_start_gives_back_recv(CHECK_EVENT_FN_BSEND_INIT);
}

/* A refused Start of a persistent receive, unmatched, leaves nothing posted: rank 0's later message
 * goes to rank 1's next receive, not to the request (which would then look never completed). */
static void test_refused_start_posts_nothing(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    const uint64_t req = 4;
    msg_call(&s, 1, CHECK_EVENT_FN_RECV_INIT, 0, req, 4, 1);
    start(&s, 1, &req, 1);
    refused_exit(&s, 1, CHECK_EVENT_FN_START, req);
    MG_CHECK_INT(sizes(&s).pending_recvs, 0);
    msg_call(&s, 0, CHECK_EVENT_FN_SEND, 1, 0, 4, 0);
    msg_call(&s, 1, CHECK_EVENT_FN_RECV, 0, 0, 4, 1);
    check_event ev = st_event(CHECK_EVENT_EV_EXIT, 0, CHECK_EVENT_FN_SEND);
    st_feed(&s, &ev);
    msg_call(&s, 1, CHECK_EVENT_FN_REQUEST_FREE, CHECK_EVENT_PROC_NULL, req, 0, 1);
    finalize_clean(&s, 2);
    st_close(&s);
}

/* Rank 0's Startall of a buffered send to rank 1 and a receive from rank 2 matched both partners'
 * calls; MPI refused it: rank 1's receive waits again, rank 2's send is queued again, both
 * requests are inactive, and rank 0's blocking calls that follow complete the pair. */
static void test_refused_startall(void)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    const uint64_t reqs[2] = {21, 22};
    msg_call(&s, 0, CHECK_EVENT_FN_BSEND_INIT, 1, reqs[0], 4, 1);
    msg_call(&s, 0, CHECK_EVENT_FN_RECV_INIT, 2, reqs[1], 4, 1);
    msg_call(&s, 1, CHECK_EVENT_FN_RECV, 0, 0, 4, 0);
    msg_call(&s, 2, CHECK_EVENT_FN_SEND, 0, 0, 4, 0);
    start(&s, 0, reqs, 2);
    MG_CHECK_INT(sizes(&s).blocked_processes, 0);
    refused_startall(&s, 0, reqs, 2);
    deadlock_detector_queues q = sizes(&s);
    MG_CHECK_INT(q.pending_recvs, 1);
    MG_CHECK_INT(q.queued_sends, 1);
    MG_CHECK_INT(q.blocked_processes, 2);
    msg_call(&s, 0, CHECK_EVENT_FN_SEND, 1, 0, 4, 1);
    msg_call(&s, 0, CHECK_EVENT_FN_RECV, 2, 0, 4, 1);
    MG_CHECK_INT(sizes(&s).blocked_processes, 0);
    st_recv_exit(&s, 1, CHECK_EVENT_FN_RECV, 0, 0);
    check_event ev = st_event(CHECK_EVENT_EV_EXIT, 2, CHECK_EVENT_FN_SEND);
    st_feed(&s, &ev);
    for (int i = 0; i < 2; i++) {
        msg_call(&s, 0, CHECK_EVENT_FN_REQUEST_FREE, CHECK_EVENT_PROC_NULL, reqs[i], 0, 1);
    }
    finalize_clean(&s, 3);
    st_close(&s);
}

/* A Start MPI refused because its request is active already gives nothing back: the op the
 * earlier Start posted stays, and rank 1's receive takes it. */
static void test_refused_restart_keeps_first(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    const uint64_t req = 3;
    msg_call(&s, 0, CHECK_EVENT_FN_SEND_INIT, 1, req, 4, 1);
    start(&s, 0, &req, 1);
    check_event ev = st_event(CHECK_EVENT_EV_EXIT, 0, CHECK_EVENT_FN_START);
    ev.request = req;
    st_feed(&s, &ev);
    start(&s, 0, &req, 1);
    refused_exit(&s, 0, CHECK_EVENT_FN_START, req);
    MG_CHECK_INT(sizes(&s).queued_sends, 1);
    msg_call(&s, 1, CHECK_EVENT_FN_RECV, 0, 0, 4, 1);
    MG_CHECK_INT(sizes(&s).queued_sends, 0);
    size_t n;
    st_find(&s, DL_FINDING_LIFECYCLE, &n);
    MG_CHECK_INT(n, 1); /* request_started_twice */
    st_close(&s);
}

/* A buffered send that MPI accepted is complete at its exit, and the message stays for a later
 * receive (the op is let go at the exit, not lost). */
static void test_accepted_ibsend(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    const uint64_t req = 5;
    msg_call(&s, 0, CHECK_EVENT_FN_IBSEND, 1, req, 4, 1);
    st_wait_enter(&s, 0, CHECK_EVENT_FN_WAIT, &req, 1);
    st_wait_exit(&s, 0, CHECK_EVENT_FN_WAIT, &req, 1, NULL, 0, 1);
    MG_CHECK_INT(sizes(&s).queued_sends, 1);
    MG_CHECK_INT(sizes(&s).blocked_processes + sizes(&s).live_requests, 0);
    msg_call(&s, 1, CHECK_EVENT_FN_RECV, 0, 0, 4, 1);
    MG_CHECK_INT(sizes(&s).queued_sends, 0);
    finalize_clean(&s, 2);
    st_close(&s);
}

/* Rank 0 sends 4 elements of type 1 to rank 1's receive of 4 of type 0, and MPI refuses the send:
 * no message went, so no type_mismatch (the pair's issue is dropped); the send of type 0 that
 * follows agrees. Accepted, the same send is one type_mismatch, reported at the calls' exits. */
static void refused_mismatch(int refused)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    msg_call(&s, 1, CHECK_EVENT_FN_RECV, 0, 0, 4, 0);
    typed_call(&s, 0, CHECK_EVENT_FN_SEND, 1, 0, 4, 1, 0);
    size_t n;
    st_find(&s, DL_FINDING_TYPE_MISMATCH, &n);
    MG_CHECK_INT(n, 0); /* not before MPI accepted both calls */
    if (!refused) {
        st_recv_exit(&s, 1, CHECK_EVENT_FN_RECV, 0, 0);
        check_event ev = st_event(CHECK_EVENT_EV_EXIT, 0, CHECK_EVENT_FN_SEND);
        st_feed(&s, &ev);
        const dl_finding *f = st_find(&s, DL_FINDING_TYPE_MISMATCH, &n);
        MG_CHECK_INT(n, 1);
        MG_CHECK(f && f->n_calls == 2 && f->calls[0].rank == 0 && f->calls[1].rank == 1);
        st_close(&s);
        return;
    }
    refused_exit(&s, 0, CHECK_EVENT_FN_SEND, 0);
    msg_call(&s, 0, CHECK_EVENT_FN_SEND, 1, 0, 4, 1);
    st_recv_exit(&s, 1, CHECK_EVENT_FN_RECV, 0, 0);
    finalize_clean(&s, 2);
    st_close(&s);
}

static void test_refused_mismatch(void)
{
    refused_mismatch(1);
    refused_mismatch(0);
}

/* The call site of rank's MPI_Bcast from root: the line a finding names. */
static uint64_t bcast_site(int32_t rank, int32_t root)
{
    return 0x2000u + 16u * (uint64_t)rank + (uint64_t)root;
}

/* The entry of rank's MPI_Bcast from root on WORLD. */
static void bcast_from(dl_stream *s, int32_t rank, int32_t root)
{
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, rank, CHECK_EVENT_FN_BCAST);
    ev.root = root;
    ev.callsite = bcast_site(rank, root);
    st_feed(s, &ev);
}

static void bcast_enter(dl_stream *s, int32_t rank)
{
    bcast_from(s, rank, 0);
}

static void bcast_exit(dl_stream *s, int32_t rank)
{
    check_event ev = st_event(CHECK_EVENT_EV_EXIT, rank, CHECK_EVENT_FN_BCAST);
    st_feed(s, &ev);
}

/* Every rank leaves its Bcast (rank `skip` left it already), then all make a Barrier and
 * finalize: a retried Bcast that took a second slot would mismatch the Barrier. */
static void bcast_done_then_barrier(dl_stream *s, int32_t skip)
{
    for (int32_t r = 0; r < 3; r++) {
        if (r != skip) {
            bcast_exit(s, r);
        }
    }
    for (int32_t r = 0; r < 3; r++) {
        st_coll(s, r, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 1);
    }
    finalize_clean(s, 3);
}

/* MPI refused rank 0's Bcast while its slot was open, where it was alone (order 0), after rank
 * 1's (1), or the reference rank 1's agreed with (2); rank 0 calls it again: the retry fills the
 * same slot, and the Barrier after it matches. */
static void refused_bcast_open_slot(int order)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    if (order == 1) {
        bcast_enter(&s, 1);
    }
    bcast_enter(&s, 0);
    if (order == 2) {
        bcast_enter(&s, 1);
    }
    refused_exit(&s, 0, CHECK_EVENT_FN_BCAST, 0);
    if (order == 0) {
        bcast_enter(&s, 1);
    }
    bcast_enter(&s, 2);
    MG_CHECK_INT(sizes(&s).blocked_processes, 2);
    bcast_enter(&s, 0);
    MG_CHECK_INT(sizes(&s).blocked_processes, 0);
    bcast_done_then_barrier(&s, -1);
    st_close(&s);
}

static void test_refused_coll_open_slot(void)
{
    for (int order = 0; order < 3; order++) {
        refused_bcast_open_slot(order);
    }
}

/* Rank 0's Bcast arrives last and completes its slot, then MPI refuses it: the slot opens again
 * and the ranks still in their Bcast wait again (rank 1's exit, read before the refusal, had
 * taken it out of the call when `one_left`), until rank 0's retry completes the slot. */
static void refused_bcast_completed_slot(int one_left)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    bcast_enter(&s, 1);
    bcast_enter(&s, 2);
    bcast_enter(&s, 0);
    MG_CHECK_INT(sizes(&s).blocked_processes, 0);
    if (one_left) {
        bcast_exit(&s, 1);
    }
    refused_exit(&s, 0, CHECK_EVENT_FN_BCAST, 0);
    MG_CHECK_INT(sizes(&s).blocked_processes, one_left ? 1 : 2);
    bcast_enter(&s, 0);
    MG_CHECK_INT(sizes(&s).blocked_processes, 0);
    bcast_done_then_barrier(&s, one_left ? 1 : -1);
    st_close(&s);
}

static void test_refused_coll_completed_slot(void)
{
    refused_bcast_completed_slot(0);
    refused_bcast_completed_slot(1);
}

/* Not retried: rank 0 finalizes after its refused Bcast, and ranks 1 and 2, whose Bcast it had
 * completed, are found stuck in it. */
static void test_refused_coll_not_retried(void)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    bcast_enter(&s, 1);
    bcast_enter(&s, 2);
    bcast_enter(&s, 0);
    refused_exit(&s, 0, CHECK_EVENT_FN_BCAST, 0);
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_FINALIZE);
    st_feed(&s, &ev);
    MG_CHECK(st_check(&s) >= 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_STUCK_ON_TERMINATED, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK(f && f->n_calls == 3 && f->calls[0].rank == 0);
    MG_CHECK(f && f->calls[1].func == CHECK_EVENT_FN_BCAST &&
             f->calls[2].func == CHECK_EVENT_FN_BCAST);
    st_close(&s);
}

/* As above, but rank 0's Bcast was reported with invalid arguments before MPI refused it (MPICH's
 * MPI_Win_free with an epoch open, rma_free_unclosed): ranks 1 and 2 stuck in it are that
 * finding's consequence, not a second one. With `retried`, rank 0 then makes a valid Bcast and
 * finalizes while the others wait in a Barrier: a bug of its own, reported. */
static void refused_invalid_coll_not_retried(int retried)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    bcast_enter(&s, 1);
    bcast_enter(&s, 2);
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_BCAST);
    ev.callsite = bcast_site(0, 0);
    ev.flags = CHECK_EVENT_FLAG_INVALID_ARGUMENTS;
    ev.aux = USAGE_ARGS_RMA_EPOCH_UNCLOSED;
    st_feed(&s, &ev);
    bcast_enter(&s, 0);
    ev = st_event(CHECK_EVENT_EV_EXIT, 0, CHECK_EVENT_FN_BCAST);
    ev.callsite = bcast_site(0, 0);
    ev.flags = CHECK_EVENT_FLAG_REFUSED;
    st_feed(&s, &ev);
    if (retried) {
        bcast_enter(&s, 0);
        for (int32_t r = 0; r < 3; r++) {
            bcast_exit(&s, r);
        }
        st_coll(&s, 1, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0,
                0);
    }
    ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_FINALIZE);
    st_feed(&s, &ev);
    st_check(&s);
    size_t n;
    st_find(&s, DL_FINDING_INVALID_ARGUMENTS, &n);
    MG_CHECK_INT(n, 1);
    const dl_finding *f = st_find(&s, DL_FINDING_STUCK_ON_TERMINATED, &n);
    MG_CHECK_INT(n, (size_t)retried);
    MG_CHECK(!retried || (f && f->n_calls == 2 && f->calls[1].func == CHECK_EVENT_FN_BARRIER));
    st_close(&s);
}

static void test_refused_invalid_coll_not_retried(void)
{
    refused_invalid_coll_not_retried(0);
    refused_invalid_coll_not_retried(1);
}

/* The collective mismatches found so far: how many, and whether the last lists exactly the
 * Bcasts of ranks[i] from roots[i] (their call sites), in that order. */
static size_t mismatch_lists(dl_stream *s, const int32_t *ranks, const int32_t *roots, size_t n)
{
    size_t count;
    const dl_finding *f = st_find(s, DL_FINDING_COLLECTIVE_MISMATCH, &count);
    MG_CHECK(count == 0 || (f && f->n_calls == n && (f->mismatch & DL_FINDING_MISMATCH_ROOT)));
    for (size_t i = 0; count && f && i < n && i < f->n_calls; i++) {
        MG_CHECK_INT(f->calls[i].rank, ranks[i]);
        MG_CHECK_INT(f->calls[i].callsite, bcast_site(ranks[i], roots[i]));
    }
    return count;
}

/* Ranks 0 and 1 (of `world`) broadcast from different roots, rank 1 from root 1, entering after
 * rank 0 or (`refused_first`) before it; the detector compares the calls before rank 1's exit,
 * which says MPI refused the call: no collective_mismatch, none either once rank 1's retry from
 * root 0 (and rank 2's Bcast) fill the slot. */
static void refused_coll_mismatch(int32_t world, int refused_first)
{
    dl_stream s;
    st_open(&s, world, NULL);
    if (refused_first) {
        bcast_from(&s, 1, 1);
    }
    bcast_from(&s, 0, 0);
    if (!refused_first) {
        bcast_from(&s, 1, 1);
    }
    MG_CHECK_INT(mismatch_lists(&s, NULL, NULL, 0), 0); /* held: rank 1 may still be refused */
    refused_exit(&s, 1, CHECK_EVENT_FN_BCAST, 0);
    bcast_from(&s, 1, 0);
    if (world == 3) {
        bcast_from(&s, 2, 0);
    }
    for (int32_t r = 0; r < world; r++) {
        bcast_exit(&s, r);
    }
    MG_CHECK_INT(mismatch_lists(&s, NULL, NULL, 0), 0);
    finalize_clean(&s, world);
    st_close(&s);
}

static void test_refused_coll_mismatch(void)
{
    refused_coll_mismatch(2, 0);
    refused_coll_mismatch(2, 1); /* the refused call was the slot's reference */
    refused_coll_mismatch(3, 0); /* rank 1 waits for rank 2 meanwhile */
}

/* Accepted (its exit a success), rank 1's Bcast from root 1 is one collective_mismatch with both
 * calls' lines, reported once both exits are read; with a third rank's Bcast from root 2 and
 * rank 1's refused, the mismatch of ranks 0 and 2 stays, and rank 1's retry joins it. */
static void test_accepted_coll_mismatch(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    bcast_from(&s, 0, 0);
    bcast_from(&s, 1, 1);
    bcast_exit(&s, 1);
    MG_CHECK_INT(mismatch_lists(&s, NULL, NULL, 0), 0); /* rank 0's may still be refused */
    bcast_exit(&s, 0);
    MG_CHECK_INT(mismatch_lists(&s, (const int32_t[]){0, 1}, (const int32_t[]){0, 1}, 2), 1);
    st_close(&s);

    st_open(&s, 3, NULL);
    bcast_from(&s, 0, 0);
    bcast_from(&s, 1, 1);
    bcast_from(&s, 2, 2);
    refused_exit(&s, 1, CHECK_EVENT_FN_BCAST, 0);
    bcast_from(&s, 1, 0);
    for (int32_t r = 0; r < 3; r++) {
        bcast_exit(&s, r);
    }
    MG_CHECK_INT(mismatch_lists(&s, (const int32_t[]){0, 2, 1}, (const int32_t[]){0, 2, 0}, 3), 1);
    st_close(&s);
}

/* Rank 1's Bcast from root 1 mismatches rank 0's, and an analysis runs between its entry and its
 * exit, which says MPI refused it (`refused`): the analysis keeps the finding held, the refusal
 * drops it, and rank 1's retry from root 0 agrees with ranks 0 and 2 (nothing reported). Accepted, the calls never
 * return (MPI hangs in them): the analysis due once the hold ran out (no record came meanwhile)
 * reports the mismatch with both lines. */
static void coll_mismatch_analysed_before_exit(int refused)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    bcast_from(&s, 0, 0);
    bcast_from(&s, 1, 1);
    st_check(&s);
    MG_CHECK_INT(mismatch_lists(&s, NULL, NULL, 0), 0); /* rank 1's refusal may be on its way */
    uint64_t due = sizes(&s).mismatch_due;
    MG_CHECK(due > s.now);
    if (refused) {
        refused_exit(&s, 1, CHECK_EVENT_FN_BCAST, 0);
        MG_CHECK_INT(sizes(&s).mismatch_due, 0);
        bcast_from(&s, 1, 0);
        bcast_from(&s, 2, 0);
        bcast_done_then_barrier(&s, -1);
        st_close(&s);
        return;
    }
    s.now = due - 2; /* st_check analyses at s.now + 1 */
    st_check(&s);
    MG_CHECK_INT(mismatch_lists(&s, NULL, NULL, 0), 0);
    st_check(&s);
    MG_CHECK_INT(mismatch_lists(&s, (const int32_t[]){0, 1}, (const int32_t[]){0, 1}, 2), 1);
    MG_CHECK_INT(sizes(&s).mismatch_due, 0);
    st_close(&s);
}

static void test_coll_mismatch_analysed_before_exit(void)
{
    coll_mismatch_analysed_before_exit(1);
    coll_mismatch_analysed_before_exit(0);
}

/* The job ends (or mpiguard is interrupted) with ranks 0 and 1 inside their disagreeing Bcasts
 * before the hold ran out: the analysis at the end still holds the mismatch, and the end of the
 * stream, after which no refusal can come, reports it with both lines. */
static void test_coll_mismatch_held_at_end(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    bcast_from(&s, 0, 0);
    bcast_from(&s, 1, 1);
    st_check(&s);
    MG_CHECK_INT(mismatch_lists(&s, NULL, NULL, 0), 0);
    MG_CHECK_INT(deadlock_detector_end(s.det), MG_ERROR_OK);
    MG_CHECK_INT(mismatch_lists(&s, (const int32_t[]){0, 1}, (const int32_t[]){0, 1}, 2), 1);
    MG_CHECK_INT(sizes(&s).mismatch_due, 0);
    MG_CHECK_INT(deadlock_detector_end(NULL), MG_ERROR_EINVAL);
    st_close(&s);
}

/* A refused Ibcast made no request and no arrival: rank 0's next Ibcast fills the slot, and no
 * request is left for Finalize to report. */
static void test_refused_icoll(void)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    const uint64_t reqs[3] = {11, 12, 13};
    st_coll(&s, 0, CHECK_EVENT_FN_IBCAST, CHECK_EVENT_COMM_WORLD, 0, 0, 10, 0);
    refused_exit(&s, 0, CHECK_EVENT_FN_IBCAST, 10);
    MG_CHECK_INT(sizes(&s).live_requests, 0);
    for (int32_t r = 0; r < 3; r++) {
        st_coll(&s, r, CHECK_EVENT_FN_IBCAST, CHECK_EVENT_COMM_WORLD, 0, 0, reqs[r], 1);
        st_wait_enter(&s, r, CHECK_EVENT_FN_WAIT, &reqs[r], 1);
    }
    MG_CHECK_INT(sizes(&s).blocked_processes, 0);
    for (int32_t r = 0; r < 3; r++) {
        st_wait_exit(&s, r, CHECK_EVENT_FN_WAIT, &reqs[r], 1, NULL, 0, 1);
    }
    MG_CHECK_INT(sizes(&s).live_requests, 0);
    finalize_clean(&s, 3);
    st_close(&s);
}

/* Rank 1's receive of 4 takes rank 0's message of 8, and MPI ends rank 1 inside the receive (a
 * truncation under MPI_ERRORS_ARE_FATAL): its exit never comes, and the next analysis after its
 * end reports the truncation. */
static void test_truncation_of_lost_rank(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    msg_call(&s, 0, CHECK_EVENT_FN_SEND, 1, 0, 8, 0);
    msg_call(&s, 1, CHECK_EVENT_FN_RECV, 0, 0, 4, 0);
    check_event ev = st_event(CHECK_EVENT_EV_EXIT, 0, CHECK_EVENT_FN_SEND);
    st_feed(&s, &ev);
    size_t n;
    st_find(&s, DL_FINDING_TRUNCATION, &n);
    MG_CHECK_INT(n, 0); /* rank 1 may still be refused its receive */
    MG_CHECK_INT(deadlock_detector_process_lost(s.det, 1, ++s.now), MG_ERROR_OK);
    st_check(&s);
    st_find(&s, DL_FINDING_TRUNCATION, &n);
    MG_CHECK_INT(n, 1);
    st_close(&s);
}

int main(void)
{
    MG_RUN(test_refused_recv_gives_back_send);
    MG_RUN(test_given_back_before_later_messages);
    MG_RUN(test_refused_send_gives_back_recv);
    MG_RUN(test_given_back_recv_stuck);
    MG_RUN(test_partner_completed_before_refusal);
    MG_RUN(test_refused_nonblocking_post);
    MG_RUN(test_refused_wildcard_post);
    MG_RUN(test_refused_after_forced_decision);
    MG_RUN(test_refused_start_gives_back_recv);
    MG_RUN(test_refused_start_posts_nothing);
    MG_RUN(test_refused_startall);
    MG_RUN(test_refused_restart_keeps_first);
    MG_RUN(test_accepted_ibsend);
    MG_RUN(test_refused_mismatch);
    MG_RUN(test_truncation_of_lost_rank);
    MG_RUN(test_refused_coll_open_slot);
    MG_RUN(test_refused_coll_completed_slot);
    MG_RUN(test_refused_coll_not_retried);
    MG_RUN(test_refused_invalid_coll_not_retried);
    MG_RUN(test_refused_icoll);
    MG_RUN(test_refused_coll_mismatch);
    MG_RUN(test_accepted_coll_mismatch);
    MG_RUN(test_coll_mismatch_analysed_before_exit);
    MG_RUN(test_coll_mismatch_held_at_end);
    MG_TEST_END();
}
