/* Calls MPI refused (their exit carries CHECK_FLAG_REFUSED) after the detector matched them at
 * their entry: the message or receive they matched is given back in MPI's non-overtaking order,
 * and the later call that really takes it completes (no false deadlock, lost message or
 * truncation). Issue 28, call_model.c and p2p_match_withdraw. */
#include "dl_stream.h"

/* Entry (exit too when `exits`) of a point-to-point call of rank on WORLD carrying a message of
 * `elems` basic elements of one type (a signature the matcher compares), tag 0. */
static void msg_call(dl_stream *s, int32_t rank, uint16_t func, int32_t peer, uint64_t request,
                     uint64_t elems, int exits)
{
    check_event ev = st_event(CHECK_EV_ENTER, rank, func);
    ev.peer = peer;
    ev.request = request;
    ev.count = (int64_t)elems;
    ev.type_hash = 0x5000u + elems;
    ev.type_elems = elems;
    ev.type_period = 1;
    ev.flags = CHECK_FLAG_TYPE_UNIFORM;
    st_feed(s, &ev);
    if (exits) {
        ev.kind = CHECK_EV_EXIT;
        st_feed(s, &ev);
    }
}

/* The exit of rank's call func that MPI refused (request: a nonblocking call's). */
static void refused_exit(dl_stream *s, int32_t rank, uint16_t func, uint64_t request)
{
    check_event ev = st_event(CHECK_EV_EXIT, rank, func);
    ev.request = request;
    ev.flags = CHECK_FLAG_REFUSED;
    st_feed(s, &ev);
}

static dl_queue_sizes sizes(const dl_stream *s)
{
    dl_queue_sizes q;
    deadlock_detector_queue_sizes(s->det, &q);
    return q;
}

/* Every rank finalizes; the analysis then finds nothing at all. */
static void finalize_clean(dl_stream *s, int32_t world)
{
    for (int32_t r = 0; r < world; r++) {
        check_event ev = st_event(CHECK_EV_ENTER, r, CHECK_FN_FINALIZE);
        st_feed(s, &ev);
    }
    st_check(s);
    size_t n;
    deadlock_detector_findings(s->det, &n);
    MG_CHECK_INT(n, 0);
}

/* Rank 1's receive matched rank 0's blocking send, then MPI refused it: the send waits again
 * (rank 0 blocked) until rank 1's next receive takes it. */
static void test_refused_recv_gives_back_send(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    msg_call(&s, 0, CHECK_FN_SEND, 1, 0, 4, 0);
    msg_call(&s, 1, CHECK_FN_RECV, 0, 0, 4, 0);
    MG_CHECK_INT(sizes(&s).blocked_processes, 0);
    refused_exit(&s, 1, CHECK_FN_RECV, 0);
    dl_queue_sizes q = sizes(&s);
    MG_CHECK_INT(q.queued_sends, 1);
    MG_CHECK_INT(q.blocked_processes, 1);
    msg_call(&s, 1, CHECK_FN_RECV, 0, 0, 4, 0);
    q = sizes(&s);
    MG_CHECK_INT(q.queued_sends + q.pending_recvs + q.blocked_processes, 0);
    st_recv_exit(&s, 1, CHECK_FN_RECV, 0, 0);
    check_event ev = st_event(CHECK_EV_EXIT, 0, CHECK_FN_SEND);
    st_feed(&s, &ev);
    finalize_clean(&s, 2);
    st_close(&s);
}

/* Rank 0 buffers two messages of 4 and 8 elements; rank 1's refused receive matched the first.
 * Given back, it is taken before the second (non-overtaking): the next receive of 4 gets 4, not
 * 8 (a truncation), and the one of 8 gets 8. */
static void test_given_back_before_later_messages(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    msg_call(&s, 0, CHECK_FN_BSEND, 1, 0, 4, 1);
    msg_call(&s, 0, CHECK_FN_BSEND, 1, 0, 8, 1);
    msg_call(&s, 1, CHECK_FN_RECV, 0, 0, 4, 0);
    refused_exit(&s, 1, CHECK_FN_RECV, 0);
    MG_CHECK_INT(sizes(&s).queued_sends, 2);
    msg_call(&s, 1, CHECK_FN_RECV, 0, 0, 4, 1);
    msg_call(&s, 1, CHECK_FN_RECV, 0, 0, 8, 1);
    MG_CHECK_INT(sizes(&s).queued_sends, 0);
    finalize_clean(&s, 2);
    st_close(&s);
}

/* Rank 0's blocking send (standard, or buffered) matched rank 1's waiting receive, then MPI
 * refused it: the receive waits again (rank 1 blocked) and takes rank 0's next send, which is
 * no lost message. */
static void refused_send_gives_back_recv(uint16_t func)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    msg_call(&s, 1, CHECK_FN_RECV, 0, 0, 4, 0);
    msg_call(&s, 0, func, 1, 0, 4, 0);
    MG_CHECK_INT(sizes(&s).blocked_processes, 0);
    refused_exit(&s, 0, func, 0);
    dl_queue_sizes q = sizes(&s);
    MG_CHECK_INT(q.pending_recvs, 1);
    MG_CHECK_INT(q.blocked_processes, 1);
    msg_call(&s, 0, CHECK_FN_SEND, 1, 0, 4, 1);
    q = sizes(&s);
    MG_CHECK_INT(q.queued_sends + q.pending_recvs + q.blocked_processes, 0);
    st_recv_exit(&s, 1, CHECK_FN_RECV, 0, 0);
    finalize_clean(&s, 2);
    st_close(&s);
}

static void test_refused_send_gives_back_recv(void)
{
    refused_send_gives_back_recv(CHECK_FN_SEND);
    refused_send_gives_back_recv(CHECK_FN_BSEND);
}

/* When nothing else comes, the receive a refused send gave back is found stuck: rank 1 waits for
 * rank 0, which finalized. */
static void test_given_back_recv_stuck(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    msg_call(&s, 1, CHECK_FN_RECV, 0, 0, 4, 0);
    msg_call(&s, 0, CHECK_FN_SEND, 1, 0, 4, 0);
    refused_exit(&s, 0, CHECK_FN_SEND, 0);
    check_event ev = st_event(CHECK_EV_ENTER, 0, CHECK_FN_FINALIZE);
    st_feed(&s, &ev);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_STUCK_ON_TERMINATED, &n);
    MG_CHECK(f && f->n_calls == 2 && f->calls[0].rank == 0);
    MG_CHECK(f && f->calls[1].rank == 1 && f->calls[1].func == CHECK_FN_RECV);
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
        uint16_t func = irecv ? CHECK_FN_IRECV : CHECK_FN_ISEND;
        msg_call(&s, other, irecv ? CHECK_FN_SEND : CHECK_FN_RECV, poster, 0, 4, 0);
        msg_call(&s, poster, func, other, 7, 4, 0);
        refused_exit(&s, poster, func, 7);
        dl_queue_sizes q = sizes(&s);
        MG_CHECK_INT(q.live_requests, 0);
        MG_CHECK_INT(q.blocked_processes, 1);
        msg_call(&s, poster, irecv ? CHECK_FN_RECV : CHECK_FN_SEND, other, 0, 4, 1);
        check_event ev = st_event(CHECK_EV_EXIT, other, irecv ? CHECK_FN_SEND : CHECK_FN_RECV);
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
    msg_call(&s, 0, CHECK_FN_BSEND, 2, 0, 4, 1);
    msg_call(&s, 2, CHECK_FN_IRECV, CHECK_ANY_SOURCE, 5, 4, 0);
    MG_CHECK_INT(sizes(&s).undecided, 1);
    refused_exit(&s, 2, CHECK_FN_IRECV, 5);
    MG_CHECK_INT(sizes(&s).undecided, 0);
    msg_call(&s, 2, CHECK_FN_RECV, 0, 0, 4, 0);
    dl_queue_sizes q = sizes(&s);
    MG_CHECK_INT(q.queued_sends + q.pending_recvs + q.blocked_processes, 0);
    st_recv_exit(&s, 2, CHECK_FN_RECV, 0, 0);
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
    msg_call(&s, 0, CHECK_FN_SEND, 2, 0, 4, 0);
    msg_call(&s, 1, CHECK_FN_SEND, 2, 0, 4, 0);
    msg_call(&s, 2, CHECK_FN_RECV, CHECK_ANY_SOURCE, 0, 4, 0);
    check_event ev = st_event(CHECK_EV_EXIT, 1, CHECK_FN_SEND);
    st_feed(&s, &ev); /* held behind rank 1's send: the backlog forces the decision */
    MG_CHECK_INT(sizes(&s).undecided, 0);
    MG_CHECK_INT(sizes(&s).queued_sends, 1);
    refused_exit(&s, refused_recv ? 2 : 0, refused_recv ? CHECK_FN_RECV : CHECK_FN_SEND, 0);
    if (refused_recv) {
        MG_CHECK_INT(sizes(&s).queued_sends, 2);
        msg_call(&s, 2, CHECK_FN_RECV, 0, 0, 4, 1);
        ev = st_event(CHECK_EV_EXIT, 0, CHECK_FN_SEND);
        st_feed(&s, &ev);
    } else {
        MG_CHECK_INT(sizes(&s).pending_recvs, 1);
        msg_call(&s, 0, CHECK_FN_SEND, 2, 0, 4, 1);
        st_recv_exit(&s, 2, CHECK_FN_RECV, 0, 0);
    }
    msg_call(&s, 2, CHECK_FN_RECV, 1, 0, 4, 1);
    MG_CHECK_INT(sizes(&s).queued_sends + sizes(&s).blocked_processes, 0);
    finalize_clean(&s, 3);
    st_close(&s);
}

static void test_refused_after_forced_decision(void)
{
    refused_after_forced_decision(1);
    refused_after_forced_decision(0);
}

int main(void)
{
    MG_RUN(test_refused_recv_gives_back_send);
    MG_RUN(test_given_back_before_later_messages);
    MG_RUN(test_refused_send_gives_back_recv);
    MG_RUN(test_given_back_recv_stuck);
    MG_RUN(test_refused_nonblocking_post);
    MG_RUN(test_refused_wildcard_post);
    MG_RUN(test_refused_after_forced_decision);
    MG_TEST_END();
}
