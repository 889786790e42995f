/* Communication patterns beyond the figures: cycles over 2..P ranks, collective mismatches,
 * multi-completions over wildcards, persistent requests, Sendrecv rings, split communicators,
 * master-worker, probes, terminated peers, and the detector's argument checks. */
#include "dl_stream.h"

static const int32_t all_ranks[] = {0, 1, 2, 3, 4, 5, 6, 7};

static void test_cycles(void)
{
    for (int32_t p = 2; p <= 8; p++) {
        for (int send = 0; send < 2; send++) {
            dl_stream s;
            st_open(&s, p, NULL);
            for (int32_t r = 0; r < p; r++) {
                if (send) {
                    ST_SEND(&s, r, (r + 1) % p, 0);
                } else {
                    ST_RECV(&s, r, (r + p - 1) % p, 0);
                }
            }
            MG_CHECK_INT(st_check(&s), 1);
            size_t n;
            const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
            MG_CHECK(st_knot_is(f, all_ranks, (size_t)p));
            MG_CHECK(f && f->graph.n_arcs == (size_t)p);
            st_close(&s);
        }
    }
}

/* A chain into a cycle: ranks 2 and 3 wait for the 0-1 cycle without being part of the knot. */
static void test_waiting_for_knot(void)
{
    dl_stream s;
    st_open(&s, 4, NULL);
    ST_RECV(&s, 0, 1, 0);
    ST_RECV(&s, 1, 0, 0);
    ST_RECV(&s, 2, 0, 0);
    ST_RECV(&s, 3, 2, 0);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    int32_t knot[] = {0, 1}, waiting[] = {2, 3};
    MG_CHECK(st_knot_is(f, knot, 2));
    MG_CHECK(st_waiting_is(f, waiting, 2));
    st_close(&s);
}

/* A real deadlock (0, 1) and a send-send pair that buffering hid (2, 3) in one check: two
 * findings, each with its own ranks. */
static void test_real_and_potential_apart(void)
{
    dl_stream s;
    st_open(&s, 4, NULL);
    ST_RECV(&s, 0, 1, 0);
    ST_RECV(&s, 1, 0, 0);
    ST_SEND(&s, 2, 3, 1);
    ST_RECV(&s, 2, 3, 1);
    ST_SEND(&s, 3, 2, 1);
    ST_RECV(&s, 3, 2, 1);
    MG_CHECK_INT(st_check(&s), 2);
    size_t n;
    int32_t real[] = {0, 1}, hidden[] = {2, 3};
    MG_CHECK(st_knot_is(st_find(&s, DL_FINDING_POTENTIAL_DEADLOCK, &n), hidden, 2));
    MG_CHECK(st_knot_is(st_find(&s, DL_FINDING_DEADLOCK, &n), real, 2));
    st_close(&s);
}

/* A blocked rank whose peer still computes is not a deadlock. */
static void test_blocked_not_deadlocked(void)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    ST_RECV(&s, 0, 1, 0);
    ST_RECV(&s, 1, 2, 0);
    MG_CHECK(!deadlock_detector_is_every_live_process_blocked(s.det));
    MG_CHECK_INT(st_check(&s), 0);
    ST_SEND(&s, 2, 1, 1);
    ST_SEND(&s, 1, 0, 0);
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.blocked_processes, 0);
    st_close(&s);
}

static void coll_pair(uint16_t f0, int32_t root0, uint32_t op0, uint16_t f1, int32_t root1,
                      uint32_t op1, unsigned expect)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    st_coll(&s, 0, f0, CHECK_EVENT_COMM_WORLD, root0, op0, 7, 1);
    st_coll(&s, 1, f1, CHECK_EVENT_COMM_WORLD, root1, op1, 8, 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_COLLECTIVE_MISMATCH, &n);
    MG_CHECK_INT(n, expect ? 1 : 0);
    if (expect && f) {
        MG_CHECK_INT(f->mismatch, expect);
        MG_CHECK_INT(f->n_calls, 2);
        MG_CHECK_INT(f->calls[0].rank, 0);
        MG_CHECK_INT(f->calls[1].rank, 1);
        MG_CHECK_INT(f->calls[0].func, f0);
        MG_CHECK_INT(f->calls[1].func, f1);
        MG_CHECK_INT(f->calls[1].root, root1);
        MG_CHECK_INT(f->calls[1].callsite, 0x1000u + f1);
    }
    st_close(&s);
}

static void test_collective_mismatches(void)
{
    coll_pair(CHECK_EVENT_FN_BARRIER, CHECK_EVENT_NO_ROOT, 0, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_NO_ROOT, 0, 0);
    coll_pair(CHECK_EVENT_FN_BARRIER, CHECK_EVENT_NO_ROOT, 0, CHECK_EVENT_FN_BCAST, 0, 0, DL_FINDING_MISMATCH_KIND);
    coll_pair(CHECK_EVENT_FN_BCAST, 0, 0, CHECK_EVENT_FN_BCAST, 1, 0, DL_FINDING_MISMATCH_ROOT);
    coll_pair(CHECK_EVENT_FN_ALLREDUCE, CHECK_EVENT_NO_ROOT, 1, CHECK_EVENT_FN_ALLREDUCE, CHECK_EVENT_NO_ROOT, 2,
              DL_FINDING_MISMATCH_OP);
    coll_pair(CHECK_EVENT_FN_REDUCE, 0, 1, CHECK_EVENT_FN_REDUCE, 1, 2, DL_FINDING_MISMATCH_ROOT | DL_FINDING_MISMATCH_OP);
    coll_pair(CHECK_EVENT_FN_BARRIER, CHECK_EVENT_NO_ROOT, 0, CHECK_EVENT_FN_IBARRIER, CHECK_EVENT_NO_ROOT, 0,
              DL_FINDING_MISMATCH_BLOCKING);
    /* Roots and ops are compared only where the collective has them. */
    coll_pair(CHECK_EVENT_FN_ALLGATHER, 0, 1, CHECK_EVENT_FN_ALLGATHER, 1, 2, 0);
}

/* Collectives in different orders on three ranks: each slot's first disagreement is one finding
 * listing every rank that disagreed; nobody deadlocks on the mismatch. */
static void test_collective_order(void)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    st_coll(&s, 0, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 1);
    st_coll(&s, 0, CHECK_EVENT_FN_BCAST, CHECK_EVENT_COMM_WORLD, 0, 0, 0, 1);
    for (int32_t r = 1; r < 3; r++) {
        st_coll(&s, r, CHECK_EVENT_FN_BCAST, CHECK_EVENT_COMM_WORLD, 0, 0, 0, 1);
        st_coll(&s, r, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 1);
    }
    size_t n;
    const dl_finding *all = deadlock_detector_findings(s.det, &n);
    MG_CHECK_INT(n, 2);
    if (n == 2) {
        MG_CHECK_INT(all[0].n_calls, 3);
        MG_CHECK_INT(all[0].calls[0].rank, 0);
        MG_CHECK_INT(all[0].calls[0].func, CHECK_EVENT_FN_BARRIER);
        MG_CHECK_INT(all[0].calls[2].rank, 2);
        MG_CHECK_INT(all[0].calls[2].func, CHECK_EVENT_FN_BCAST);
        MG_CHECK_INT(all[1].calls[0].func, CHECK_EVENT_FN_BCAST);
    }
    MG_CHECK_INT(st_check(&s), 0);
    st_close(&s);
}

/* tests/check/programs/gather_root_mismatch.c: rank 0 names root 0, ranks 1 and 2 root 1. In
 * every order the calls can reach the detector, one finding names all three, each with its root. */
static void test_collective_mismatch_any_order(void)
{
    static const int32_t orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                         {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int k = 0; k < 6; k++) {
        dl_stream s;
        st_open(&s, 3, NULL);
        for (int i = 0; i < 3; i++) {
            int32_t r = orders[k][i];
            st_coll(&s, r, CHECK_EVENT_FN_GATHER, CHECK_EVENT_COMM_WORLD, r == 0 ? 0 : 1, 0, 0, 0);
        }
        MG_CHECK_INT(st_check_held(&s), 1); /* no exit read: held until this analysis */
        size_t n;
        const dl_finding *f = st_find(&s, DL_FINDING_COLLECTIVE_MISMATCH, &n);
        MG_CHECK_INT(n, 1);
        MG_CHECK(f && f->n_calls == 3 && f->mismatch == DL_FINDING_MISMATCH_ROOT);
        unsigned named = 0;
        for (size_t c = 0; f && c < f->n_calls; c++) {
            named |= 1u << f->calls[c].rank;
            MG_CHECK_INT(f->calls[c].root, f->calls[c].rank == 0 ? 0 : 1);
        }
        MG_CHECK_INT(named, 7);
        MG_CHECK_INT(f ? f->calls[0].rank : -1, orders[k][0]); /* the first caller leads */
        MG_CHECK_INT(st_check(&s), 0); /* the mismatching calls count as arrivals */
        st_close(&s);
    }
}

/* A collective one rank never calls: the others wait for it; it waits for them elsewhere. */
static void test_collective_deadlock(void)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    st_coll(&s, 0, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 0);
    st_coll(&s, 1, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 0);
    ST_RECV(&s, 2, 0, 0);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    int32_t knot[] = {0, 2}, waiting[] = {1};
    MG_CHECK(st_knot_is(f, knot, 2));
    MG_CHECK(st_waiting_is(f, waiting, 1));
    if (f) { /* 0 and 1 -> barrier node -> 2 -> 0 */
        MG_CHECK_INT(f->graph.n_nodes, 4);
        MG_CHECK_INT(f->graph.n_arcs, 4);
    }
    st_close(&s);
}

/* Ibarrier completed through Wait; the rank that never joins is what the Wait waits for. */
static void test_nonblocking_collective(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    uint64_t r = 5;
    st_coll(&s, 0, CHECK_EVENT_FN_IBARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, r, 1);
    st_wait_enter(&s, 0, CHECK_EVENT_FN_WAIT, &r, 1);
    ST_RECV(&s, 1, 0, 0);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    int32_t knot[] = {0, 1};
    MG_CHECK(st_knot_is(f, knot, 2));
    MG_CHECK(f && f->graph.n_nodes == 2); /* the collective node was a pass-through */
    st_close(&s);
}

/* Waitall, Waitany and Waitsome over wildcard receives, completed with their statuses: clean. */
static void test_multi_completion_clean(void)
{
    uint16_t funcs[] = {CHECK_EVENT_FN_WAITALL, CHECK_EVENT_FN_WAITANY, CHECK_EVENT_FN_WAITSOME};
    for (int k = 0; k < 3; k++) {
        dl_stream s;
        st_open(&s, 3, NULL);
        uint64_t reqs[] = {1, 2};
        st_p2p(&s, 0, CHECK_EVENT_FN_IRECV, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_ANY_SOURCE, CHECK_EVENT_ANY_TAG, 1, 1);
        st_p2p(&s, 0, CHECK_EVENT_FN_IRECV, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_ANY_SOURCE, CHECK_EVENT_ANY_TAG, 2, 1);
        ST_SEND(&s, 1, 0, 1);
        ST_SEND(&s, 2, 0, 1);
        check_event_status both[] = {{0, 2, 0, 0, 1}, {1, 1, 0, 0, 1}};
        if (funcs[k] == CHECK_EVENT_FN_WAITANY) {
            st_wait_enter(&s, 0, CHECK_EVENT_FN_WAITANY, reqs, 2);
            st_wait_exit(&s, 0, CHECK_EVENT_FN_WAITANY, reqs, 2, &both[0], 1, 1);
            uint64_t rest[] = {0, 2}; /* the completed slot is MPI_REQUEST_NULL now */
            st_wait_enter(&s, 0, CHECK_EVENT_FN_WAITANY, rest, 2);
            st_wait_exit(&s, 0, CHECK_EVENT_FN_WAITANY, rest, 2, &both[1], 1, 1);
        } else {
            st_wait_enter(&s, 0, funcs[k], reqs, 2);
            st_wait_exit(&s, 0, funcs[k], reqs, 2, both, 2, 1);
        }
        MG_CHECK_INT(st_check(&s), 0);
        deadlock_detector_queues q;
        deadlock_detector_queue_sizes(s.det, &q);
        MG_CHECK_INT(q.queued_sends, 0);
        MG_CHECK_INT(q.pending_recvs, 0);
        MG_CHECK_INT(q.live_requests, 0);
        MG_CHECK_INT(q.held_records, 0);
        st_close(&s);
    }
}

/* Waitall over two wildcard receives with one sender, whose Waitall never returns: probing the
 * match of the first receive finds that the second one can never be satisfied. */
static void test_waitall_wildcards_deadlock(void)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    uint64_t reqs[] = {1, 2};
    st_p2p(&s, 0, CHECK_EVENT_FN_IRECV, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_ANY_SOURCE, 0, 1, 1);
    st_p2p(&s, 0, CHECK_EVENT_FN_IRECV, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_ANY_SOURCE, 0, 2, 1);
    st_wait_enter(&s, 0, CHECK_EVENT_FN_WAITALL, reqs, 2);
    ST_SEND(&s, 1, 0, 1);
    ST_RECV(&s, 1, 0, 0);
    ST_RECV(&s, 2, 0, 0);
    MG_CHECK(st_check(&s) >= 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK_INT(n, 1);
    int32_t knot[] = {0, 1, 2};
    MG_CHECK(st_knot_is(f, knot, 3));
    MG_CHECK(f && (f->notes & DL_FINDING_NOTE_PROBED) && f->probe_source == 1);
    st_close(&s);
}

/* Waitany on two receives from ranks that both wait for rank 0: OR arcs, deadlock. */
static void test_waitany_deadlock(void)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    uint64_t reqs[] = {1, 2};
    st_p2p(&s, 0, CHECK_EVENT_FN_IRECV, CHECK_EVENT_COMM_WORLD, 1, 0, 1, 1);
    st_p2p(&s, 0, CHECK_EVENT_FN_IRECV, CHECK_EVENT_COMM_WORLD, 2, 0, 2, 1);
    st_wait_enter(&s, 0, CHECK_EVENT_FN_WAITANY, reqs, 2);
    ST_RECV(&s, 1, 0, 0);
    MG_CHECK_INT(st_check(&s), 0); /* rank 2 may still send */
    ST_RECV(&s, 2, 0, 0);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK(st_knot_is(f, all_ranks, 3));
    MG_CHECK(f && f->graph.n_arcs == 4 && wait_graph_arc_is_or(&f->graph, 0));
    st_close(&s);
}

static void test_persistent(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    uint64_t r = 9, q = 10;
    st_p2p(&s, 0, CHECK_EVENT_FN_SEND_INIT, CHECK_EVENT_COMM_WORLD, 1, 3, r, 1);
    st_p2p(&s, 1, CHECK_EVENT_FN_RECV_INIT, CHECK_EVENT_COMM_WORLD, 0, 3, q, 1);
    for (int it = 0; it < 3; it++) {
        st_p2p(&s, 0, CHECK_EVENT_FN_START, CHECK_EVENT_COMM_WORLD, 0, 0, r, 1);
        st_p2p(&s, 1, CHECK_EVENT_FN_START, CHECK_EVENT_COMM_WORLD, 0, 0, q, 1);
        st_wait_enter(&s, 0, CHECK_EVENT_FN_WAIT, &r, 1);
        st_wait_exit(&s, 0, CHECK_EVENT_FN_WAIT, &r, 1, NULL, 0, 1);
        st_wait_enter(&s, 1, CHECK_EVENT_FN_WAIT, &q, 1);
        st_wait_exit(&s, 1, CHECK_EVENT_FN_WAIT, &q, 1, NULL, 0, 1);
    }
    MG_CHECK_INT(st_check(&s), 0);
    deadlock_detector_queues sz;
    deadlock_detector_queue_sizes(s.det, &sz);
    MG_CHECK_INT(sz.live_requests, 2);
    MG_CHECK_INT(sz.held_records, 0);
    st_p2p(&s, 0, CHECK_EVENT_FN_REQUEST_FREE, CHECK_EVENT_COMM_WORLD, 0, 0, r, 1);
    st_p2p(&s, 1, CHECK_EVENT_FN_REQUEST_FREE, CHECK_EVENT_COMM_WORLD, 0, 0, q, 1);
    deadlock_detector_queue_sizes(s.det, &sz);
    MG_CHECK_INT(sz.live_requests, 0);
    /* Starting a request nobody created is a malformed stream. */
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_START);
    ev.request = 77;
    MG_CHECK_INT(st_feed_rc(&s, &ev), MG_ERROR_EFORMAT);
    st_close(&s);
}

static void test_persistent_deadlock(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    uint64_t r = 9, q = 10;
    st_p2p(&s, 0, CHECK_EVENT_FN_RECV_INIT, CHECK_EVENT_COMM_WORLD, 1, 3, r, 1);
    st_p2p(&s, 1, CHECK_EVENT_FN_RECV_INIT, CHECK_EVENT_COMM_WORLD, 0, 3, q, 1);
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_STARTALL);
    ev.requests = &r;
    ev.n_requests = 1;
    st_feed(&s, &ev);
    st_p2p(&s, 1, CHECK_EVENT_FN_START, CHECK_EVENT_COMM_WORLD, 0, 0, q, 1);
    st_wait_enter(&s, 0, CHECK_EVENT_FN_WAIT, &r, 1);
    st_wait_enter(&s, 1, CHECK_EVENT_FN_WAIT, &q, 1);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK(st_knot_is(f, all_ranks, 2));
    MG_CHECK(f && f->calls[0].func == CHECK_EVENT_FN_WAIT);
    st_close(&s);
}

/* The record stream `mpiguard check` captured from tests/check/programs/
 * persistent_any_source_unmatched.c, in the order it arrived (the fields the detector reads):
 * rank 0's records all come before the workers'. A persistent wildcard receive restarted three
 * times for two messages: the exit of the second Wait is held behind the second Start, so its
 * decision (source 2) is for the second incarnation, not for the first one the model still has
 * (decided source 1). */
static void test_persistent_wildcard_held(void)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    uint64_t r = 1;
    st_p2p(&s, 0, CHECK_EVENT_FN_INIT, CHECK_EVENT_COMM_WORLD, 0, 0, 0, 1);
    st_p2p(&s, 0, CHECK_EVENT_FN_RECV_INIT, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_ANY_SOURCE, 0, r, 1);
    for (int32_t source = 1; source <= 3; source++) {
        st_p2p(&s, 0, CHECK_EVENT_FN_START, CHECK_EVENT_COMM_WORLD, 0, 0, r, 1);
        /* The capture's layout: MPI_Wait names its request in the list, not in .request. */
        check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_WAIT);
        ev.requests = &r;
        ev.n_requests = 1;
        st_feed(&s, &ev);
        if (source < 3) { /* the third Wait never returns */
            check_event_status st = {0, source, 0, 0, 0};
            ev = st_event(CHECK_EVENT_EV_EXIT, 0, CHECK_EVENT_FN_WAIT);
            ev.requests = &r;
            ev.n_requests = 1;
            ev.statuses = &st;
            ev.n_statuses = 1;
            ev.result = 1;
            st_feed(&s, &ev);
        }
    }
    for (int32_t w = 1; w < 3; w++) {
        st_p2p(&s, w, CHECK_EVENT_FN_INIT, CHECK_EVENT_COMM_WORLD, 0, 0, 0, 1);
        ST_SEND(&s, w, 0, 1);
        st_coll(&s, w, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 0);
    }
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK(st_knot_is(f, all_ranks, 3));
    MG_CHECK(f && f->calls[0].func == CHECK_EVENT_FN_WAIT);
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.held_records, 0);
    MG_CHECK_INT(q.queued_sends, 0);
    st_close(&s);
}

static void test_sendrecv_ring(void)
{
    for (int32_t p = 2; p <= 6; p++) {
        dl_stream s;
        st_open(&s, p, NULL);
        for (int32_t r = 0; r < p; r++) {
            check_event ev = st_event(CHECK_EVENT_EV_ENTER, r, CHECK_EVENT_FN_SENDRECV);
            ev.peer = (r + 1) % p;
            ev.tag = 4;
            ev.peer2 = (r + p - 1) % p;
            ev.tag2 = 4;
            st_feed(&s, &ev);
            if (r > 0) {
                st_recv_exit(&s, r, CHECK_EVENT_FN_SENDRECV, (r + p - 1) % p, 4);
            }
        }
        st_recv_exit(&s, 0, CHECK_EVENT_FN_SENDRECV, p - 1, 4);
        MG_CHECK_INT(st_check(&s), 0);
        deadlock_detector_queues q;
        deadlock_detector_queue_sizes(s.det, &q);
        MG_CHECK_INT(q.queued_sends + q.pending_recvs + q.held_records + q.blocked_processes, 0);
        st_close(&s);
    }
}

/* Split communicators: matching respects the communicator, and a deadlock names it. */
static void test_split(void)
{
    dl_stream s;
    st_open(&s, 4, NULL);
    int32_t lo[] = {0, 1}, hi[] = {2, 3};
    for (int32_t r = 0; r < 4; r++) {
        st_split(&s, r, CHECK_EVENT_COMM_WORLD, r < 2 ? 200 : 201, r < 2 ? lo : hi, 2);
    }
    st_p2p(&s, 1, CHECK_EVENT_FN_SEND, 200, 0, 0, 0, 0);
    ST_RECV(&s, 0, 1, 0); /* on world: does not match the send on 200 */
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    int32_t knot[] = {0, 1};
    MG_CHECK(st_knot_is(f, knot, 2));
    MG_CHECK(f && f->calls[1].comm == 200 && f->calls[0].comm == CHECK_EVENT_COMM_WORLD);
    st_p2p(&s, 2, CHECK_EVENT_FN_RECV, 201, 3, 0, 0, 0);
    st_p2p(&s, 3, CHECK_EVENT_FN_SEND, 201, 2, 0, 0, 1);
    st_recv_exit(&s, 2, CHECK_EVENT_FN_RECV, 3, 0);
    st_p2p(&s, 2, CHECK_EVENT_FN_RECV, 201, 3, 0, 0, 0);
    MG_CHECK_INT(st_check(&s), 0); /* rank 3 still runs */
    st_coll(&s, 3, CHECK_EVENT_FN_BARRIER, 201, CHECK_EVENT_NO_ROOT, 0, 0, 0);
    MG_CHECK_INT(st_check(&s), 1);
    f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    int32_t knot2[] = {2, 3};
    MG_CHECK_INT(n, 2);
    MG_CHECK(st_knot_is(f, knot2, 2));
    MG_CHECK(f && f->calls[1].comm == 201 && f->calls[1].func == CHECK_EVENT_FN_BARRIER);
    st_close(&s);
}

/* Master-worker with ANY_SOURCE: every decision follows the reported status; clean. */
static void test_master_worker(void)
{
    const int32_t p = 5, rounds = 4;
    dl_stream s;
    st_open(&s, p, NULL);
    for (int32_t k = 0; k < rounds; k++) {
        for (int32_t w = 1; w < p; w++) {
            ST_SEND(&s, w, 0, 1);
        }
        for (int32_t i = 0; i < p - 1; i++) {
            int32_t w = p - 1 - (i + k) % (p - 1);
            ST_RECV(&s, 0, CHECK_EVENT_ANY_SOURCE, 0);
            st_recv_exit(&s, 0, CHECK_EVENT_FN_RECV, w, 0);
            ST_SEND(&s, 0, w, 1);
        }
        for (int32_t w = 1; w < p; w++) {
            ST_RECV(&s, w, 0, 1);
        }
    }
    MG_CHECK_INT(st_check(&s), 0);
    for (int32_t r = 0; r < p; r++) {
        check_event ev = st_event(CHECK_EVENT_EV_ENTER, r, CHECK_EVENT_FN_FINALIZE);
        st_feed(&s, &ev);
    }
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.live_processes, 0);
    MG_CHECK_INT(q.queued_sends + q.pending_recvs + q.held_records + q.undecided, 0);
    MG_CHECK(!deadlock_detector_is_every_live_process_blocked(s.det));
    MG_CHECK_INT(st_check(&s), 0);
    st_close(&s);
}

/* A rank blocked on a peer that finalized, aborted or vanished is stuck. */
static void test_terminated_peer(void)
{
    for (int how = 0; how < 3; how++) {
        dl_stream s;
        st_open(&s, 3, NULL);
        if (how == 2) {
            MG_CHECK_INT(deadlock_detector_process_lost(s.det, 0, 5), MG_ERROR_OK);
        } else {
            check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, how ? CHECK_EVENT_FN_ABORT : CHECK_EVENT_FN_FINALIZE);
            st_feed(&s, &ev);
        }
        ST_RECV(&s, 1, 0, 0);
        ST_RECV(&s, 2, 1, 0);
        MG_CHECK(deadlock_detector_is_every_live_process_blocked(s.det));
        MG_CHECK_INT(st_check(&s), 1);
        size_t n;
        const dl_finding *f = st_find(&s, DL_FINDING_STUCK_ON_TERMINATED, &n);
        int32_t knot[] = {0}, waiting[] = {1, 2};
        MG_CHECK(st_knot_is(f, knot, 1));
        MG_CHECK(st_waiting_is(f, waiting, 2));
        MG_CHECK(f && f->calls[0].state == WAIT_GRAPH_TERMINATED);
        if (how < 2) {
            MG_CHECK(f && f->calls[0].func == (how ? CHECK_EVENT_FN_ABORT : CHECK_EVENT_FN_FINALIZE));
        }
        st_close(&s);
    }
}

/* A rank that vanished after its last call (a crash outside MPI) is named at that call's site,
 * as a finalized one is at its MPI_Finalize's. */
static void test_vanished_at_last_call(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_BARRIER);
    ev.callsite = 0x4242;
    st_feed(&s, &ev);
    st_coll(&s, 1, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 1);
    ev = st_event(CHECK_EVENT_EV_EXIT, 0, CHECK_EVENT_FN_BARRIER);
    st_feed(&s, &ev);
    MG_CHECK_INT(deadlock_detector_process_lost(s.det, 0, ++s.now), MG_ERROR_OK);
    ST_RECV(&s, 1, 0, 0);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_STUCK_ON_TERMINATED, &n);
    MG_CHECK(f && f->calls[0].rank == 0 && f->calls[0].func == CHECK_EVENT_FN_BARRIER &&
             f->calls[0].callsite == 0x4242);
    st_close(&s);
}

static void test_probe(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    st_p2p(&s, 0, CHECK_EVENT_FN_PROBE, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_ANY_SOURCE, 6, 0, 0);
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.blocked_processes, 1);
    st_p2p(&s, 1, CHECK_EVENT_FN_SEND, CHECK_EVENT_COMM_WORLD, 0, 6, 0, 0);
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.blocked_processes, 1); /* the probe completed; the send waits */
    st_recv_exit(&s, 0, CHECK_EVENT_FN_PROBE, 1, 6);
    st_p2p(&s, 0, CHECK_EVENT_FN_RECV, CHECK_EVENT_COMM_WORLD, 1, 6, 0, 1);
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.blocked_processes, 0);
    /* Probe-probe: deadlock. */
    st_p2p(&s, 0, CHECK_EVENT_FN_PROBE, CHECK_EVENT_COMM_WORLD, 1, 0, 0, 0);
    st_p2p(&s, 1, CHECK_EVENT_FN_PROBE, CHECK_EVENT_COMM_WORLD, 0, 0, 0, 0);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK(st_knot_is(f, all_ranks, 2));
    st_close(&s);
}

/* Mprobe with a wildcard, Mrecv of the message; an Improbe that succeeded; both clean. */
static void test_matched_probe(void)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    ST_SEND(&s, 1, 0, 1);
    ST_SEND(&s, 2, 0, 1);
    st_p2p(&s, 0, CHECK_EVENT_FN_MPROBE, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_ANY_SOURCE, 0, 0, 0);
    st_recv_exit(&s, 0, CHECK_EVENT_FN_MPROBE, 2, 0);
    st_p2p(&s, 0, CHECK_EVENT_FN_MRECV, CHECK_EVENT_COMM_WORLD, 0, 0, 0, 1);
    check_event_status st = {0, 1, 0, 0, 1};
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_IMPROBE);
    ev.peer = CHECK_EVENT_ANY_SOURCE;
    st_feed(&s, &ev);
    ev = st_event(CHECK_EVENT_EV_EXIT, 0, CHECK_EVENT_FN_IMPROBE);
    ev.result = 1;
    ev.statuses = &st;
    ev.n_statuses = 1;
    st_feed(&s, &ev);
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.queued_sends + q.pending_recvs + q.blocked_processes + q.held_records, 0);
    st_close(&s);
}

/* ev carries `elems` elements of one basic type, `type` (0, 1: signatures the matcher tells
 * apart). */
static void typed(check_event *ev, uint64_t elems, int type)
{
    ev->count = (int64_t)elems;
    ev->type_hash = 0x5000u + 0x100u * (uint64_t)type + elems;
    ev->type_elems = elems;
    ev->type_period = 1u + (uint32_t)type;
    ev->flags = CHECK_EVENT_FLAG_TYPE_UNIFORM;
}

/* Entry and exit of a matched probe of rank (Mprobe from `from`, or a successful Improbe from
 * any source) that found `from`'s message, id `message`. */
static void probed(dl_stream *s, int32_t rank, uint16_t func, int32_t from, uint64_t message)
{
    check_event_status st = {0, from, 0, 0, 1};
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, rank, func);
    ev.peer = func == CHECK_EVENT_FN_MPROBE ? from : CHECK_EVENT_ANY_SOURCE;
    st_feed(s, &ev);
    ev = st_event(CHECK_EVENT_EV_EXIT, rank, func);
    ev.result = 1;
    ev.aux = message;
    ev.statuses = &st;
    ev.n_statuses = 1;
    st_feed(s, &ev);
}

/* The message a probe matched is compared with the Mrecv or Imrecv that receives it (issue 28
 * item 1), whether the send's record comes first or last: 4 elements of type 0 received by an
 * Mrecv as 4 of type 1 are a type_mismatch naming the Mrecv; an Improbe's message of 4 received
 * by an Imrecv of 2 is a truncation; a message received as sent is nothing. */
static void test_matched_probe_types(void)
{
    for (int send_first = 0; send_first < 2; send_first++) {
        dl_stream s;
        st_open(&s, 2, NULL);
        check_event send = st_event(CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_SEND);
        send.peer = 0;
        typed(&send, 4, 0);
        for (int i = 0; i < 3; i++) {
            if (send_first) {
                st_feed(&s, &send);
            }
            uint16_t probe = i == 1 ? CHECK_EVENT_FN_IMPROBE : CHECK_EVENT_FN_MPROBE;
            probed(&s, 0, probe, 1, 7u + (uint64_t)i);
            check_event recv = st_event(CHECK_EVENT_EV_ENTER, 0,
                                        i == 1 ? CHECK_EVENT_FN_IMRECV : CHECK_EVENT_FN_MRECV);
            recv.aux = 7u + (uint64_t)i;
            recv.request = i == 1 ? 5 : 0;
            typed(&recv, i == 1 ? 2 : 4, i == 0);
            st_feed(&s, &recv);
            recv = st_event(CHECK_EVENT_EV_EXIT, 0, recv.func);
            recv.request = i == 1 ? 5 : 0;
            st_feed(&s, &recv);
            if (i == 1) {
                uint64_t r = 5;
                st_wait_enter(&s, 0, CHECK_EVENT_FN_WAIT, &r, 1);
                st_wait_exit(&s, 0, CHECK_EVENT_FN_WAIT, &r, 1, NULL, 0, 1);
            }
            if (!send_first) {
                st_feed(&s, &send);
            }
            check_event exit = st_event(CHECK_EVENT_EV_EXIT, 1, CHECK_EVENT_FN_SEND);
            st_feed(&s, &exit);
        }
        st_check(&s);
        size_t n;
        const dl_finding *f = st_find(&s, DL_FINDING_TYPE_MISMATCH, &n);
        MG_CHECK_INT(n, 1);
        MG_CHECK(f && f->n_calls == 2 && f->calls[0].rank == 1 && f->calls[1].rank == 0 &&
                 f->calls[1].func == CHECK_EVENT_FN_MRECV &&
                 f->calls[1].callsite == 0x1000u + CHECK_EVENT_FN_MRECV);
        f = st_find(&s, DL_FINDING_TRUNCATION, &n);
        MG_CHECK_INT(n, 1);
        MG_CHECK(f && f->n_calls == 2 && f->calls[1].func == CHECK_EVENT_FN_IMRECV);
        deadlock_detector_queues q;
        deadlock_detector_queue_sizes(s.det, &q);
        MG_CHECK_INT(q.queued_sends + q.pending_recvs + q.blocked_processes, 0);
        st_close(&s);
    }
}

/* A Test in a loop never blocks; a cancelled receive leaves no queue entry. */
static void test_test_and_cancel(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    uint64_t r = 3;
    st_p2p(&s, 0, CHECK_EVENT_FN_IRECV, CHECK_EVENT_COMM_WORLD, 1, 0, r, 1);
    for (int i = 0; i < 3; i++) {
        st_wait_enter(&s, 0, CHECK_EVENT_FN_TEST, &r, 1);
        st_wait_exit(&s, 0, CHECK_EVENT_FN_TEST, &r, 1, NULL, 0, 0);
    }
    ST_RECV(&s, 1, 0, 0);
    MG_CHECK(!deadlock_detector_is_every_live_process_blocked(s.det));
    MG_CHECK_INT(st_check(&s), 0);
    ST_SEND(&s, 0, 1, 1);
    st_recv_exit(&s, 1, CHECK_EVENT_FN_RECV, 0, 0);
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.live_requests, 1);
    st_p2p(&s, 0, CHECK_EVENT_FN_CANCEL, CHECK_EVENT_COMM_WORLD, 0, 0, r, 1);
    st_wait_enter(&s, 0, CHECK_EVENT_FN_WAIT, &r, 1);
    st_wait_exit(&s, 0, CHECK_EVENT_FN_WAIT, &r, 1, NULL, 0, 1);
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.live_requests + q.pending_recvs + q.blocked_processes, 0);
    st_close(&s);
}

/* Testsome, Testany and Testall free exactly what they report complete. */
static void test_test_family(void)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    uint64_t reqs[] = {1, 2};
    st_p2p(&s, 0, CHECK_EVENT_FN_IRECV, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_ANY_SOURCE, 0, 1, 1);
    st_p2p(&s, 0, CHECK_EVENT_FN_IRECV, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_ANY_SOURCE, 0, 2, 1);
    ST_SEND(&s, 1, 0, 1);
    ST_SEND(&s, 2, 0, 1);
    check_event_status second = {1, 1, 0, 0, 1}, first = {0, 2, 0, 0, 1};
    st_wait_enter(&s, 0, CHECK_EVENT_FN_TESTSOME, reqs, 2);
    st_wait_exit(&s, 0, CHECK_EVENT_FN_TESTSOME, reqs, 2, &second, 1, 1);
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.live_requests, 1);
    MG_CHECK_INT(q.undecided, 1); /* request 1 still open, both senders candidates */
    st_wait_enter(&s, 0, CHECK_EVENT_FN_TESTANY, reqs, 2);
    st_wait_exit(&s, 0, CHECK_EVENT_FN_TESTANY, reqs, 2, NULL, 0, 0); /* nothing yet */
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.live_requests, 1);
    st_wait_enter(&s, 0, CHECK_EVENT_FN_TESTANY, reqs, 2);
    st_wait_exit(&s, 0, CHECK_EVENT_FN_TESTANY, reqs, 2, &first, 1, 1);
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.live_requests + q.undecided + q.queued_sends + q.blocked_processes, 0);
    st_p2p(&s, 0, CHECK_EVENT_FN_ISEND, CHECK_EVENT_COMM_WORLD, 1, 0, 3, 1);
    uint64_t three[] = {3};
    st_wait_enter(&s, 0, CHECK_EVENT_FN_TESTALL, three, 1);
    st_wait_exit(&s, 0, CHECK_EVENT_FN_TESTALL, three, 1, NULL, 0, 0);
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.live_requests, 1);
    st_wait_enter(&s, 0, CHECK_EVENT_FN_TESTALL, three, 1);
    st_wait_exit(&s, 0, CHECK_EVENT_FN_TESTALL, three, 1, NULL, 0, 1);
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.live_requests, 0);
    MG_CHECK_INT(q.queued_sends, 1); /* the message lives on until rank 1 receives it */
    st_close(&s);
}

/* Non-overtaking: two sends with different tags, received in the opposite order by tag. */
static void test_tags_and_order(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    st_p2p(&s, 0, CHECK_EVENT_FN_ISEND, CHECK_EVENT_COMM_WORLD, 1, 1, 1, 1);
    st_p2p(&s, 0, CHECK_EVENT_FN_ISEND, CHECK_EVENT_COMM_WORLD, 1, 2, 2, 1);
    st_p2p(&s, 1, CHECK_EVENT_FN_RECV, CHECK_EVENT_COMM_WORLD, 0, 2, 0, 1);
    st_p2p(&s, 1, CHECK_EVENT_FN_RECV, CHECK_EVENT_COMM_WORLD, 0, CHECK_EVENT_ANY_TAG, 0, 1);
    uint64_t reqs[] = {1, 2};
    st_wait_enter(&s, 0, CHECK_EVENT_FN_WAITALL, reqs, 2);
    st_wait_exit(&s, 0, CHECK_EVENT_FN_WAITALL, reqs, 2, NULL, 0, 1);
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.queued_sends + q.pending_recvs + q.blocked_processes + q.live_requests, 0);
    /* A receive for a tag nobody sends blocks. */
    st_p2p(&s, 1, CHECK_EVENT_FN_RECV, CHECK_EVENT_COMM_WORLD, 0, 9, 0, 0);
    ST_SEND(&s, 0, 1, 0);
    MG_CHECK_INT(st_check(&s), 1);
    st_close(&s);
}

/* COMM_SELF: a receive from oneself without a send waits for oneself (a knot of one); a
 * nonblocking self-send pairs with it. */
static void test_comm_self(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    uint64_t self = check_comm_self_id(1), r = 4;
    st_p2p(&s, 1, CHECK_EVENT_FN_ISEND, self, 1, 0, r, 1);
    st_p2p(&s, 1, CHECK_EVENT_FN_RECV, self, 1, 0, 0, 1);
    st_wait_enter(&s, 1, CHECK_EVENT_FN_WAIT, &r, 1);
    st_wait_exit(&s, 1, CHECK_EVENT_FN_WAIT, &r, 1, NULL, 0, 1);
    MG_CHECK_INT(st_check(&s), 0);
    st_p2p(&s, 0, CHECK_EVENT_FN_RECV, check_comm_self_id(0), 0, 0, 0, 0);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    int32_t knot[] = {0};
    MG_CHECK(st_knot_is(f, knot, 1));
    MG_CHECK(f && f->graph.n_arcs == 1 && f->graph.arcs[0].from == 0 && f->graph.arcs[0].to == 0);
    st_close(&s);
}

/* An intercommunicator {0,1} x {2,3}: its collectives involve both groups. */
static void test_intercomm(void)
{
    dl_stream s;
    st_open(&s, 4, NULL);
    int32_t groups[2][4] = {{0, 1, 2, 3}, {2, 3, 0, 1}};
    for (int32_t r = 0; r < 4; r++) {
        check_event ev = st_event(CHECK_EVENT_EV_ENTER, r, CHECK_EVENT_FN_INTERCOMM_CREATE);
        st_feed(&s, &ev);
        ev = st_event(CHECK_EVENT_EV_EXIT, r, CHECK_EVENT_FN_INTERCOMM_CREATE);
        ev.aux = 300;
        ev.flags = CHECK_EVENT_FLAG_INTERCOMM;
        ev.ranks = groups[r / 2];
        ev.n_ranks = 4;
        ev.n_local = 2;
        st_feed(&s, &ev);
    }
    for (int32_t r = 0; r < 3; r++) {
        st_coll(&s, r, CHECK_EVENT_FN_BARRIER, 300, CHECK_EVENT_NO_ROOT, 0, 0, 0);
    }
    ST_RECV(&s, 3, 0, 0);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    int32_t knot[] = {0, 3}, waiting[] = {1, 2};
    MG_CHECK(st_knot_is(f, knot, 2));
    MG_CHECK(st_waiting_is(f, waiting, 2));
    MG_CHECK(f && f->calls[0].comm == 300);
    st_close(&s);
}

/* Buffered-mode sends never block, whatever the option says. */
static void test_bsend(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    st_p2p(&s, 0, CHECK_EVENT_FN_BSEND, CHECK_EVENT_COMM_WORLD, 1, 0, 0, 0);
    st_p2p(&s, 1, CHECK_EVENT_FN_BSEND, CHECK_EVENT_COMM_WORLD, 0, 0, 0, 0);
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.blocked_processes, 0);
    MG_CHECK_INT(q.queued_sends, 2);
    ST_RECV(&s, 0, 1, 0);
    ST_RECV(&s, 1, 0, 0);
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.blocked_processes + q.queued_sends, 0);
    MG_CHECK_INT(st_check(&s), 0);
    st_close(&s);
}

static void test_bad_arguments(void)
{
    deadlock_detector *det = NULL;
    MG_CHECK_INT(deadlock_detector_create(NULL, 0, &det), MG_ERROR_EINVAL);
    MG_CHECK_INT(deadlock_detector_create(NULL, 4, NULL), MG_ERROR_EINVAL);
    deadlock_detector_destroy(NULL);
    MG_CHECK_INT(deadlock_detector_check_now(NULL, 0, NULL), MG_ERROR_EINVAL);
    MG_CHECK_INT(deadlock_detector_process_lost(NULL, 0, 0), MG_ERROR_EINVAL);
    dl_stream s;
    st_open(&s, 2, NULL);
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 5, CHECK_EVENT_FN_BARRIER);
    MG_CHECK_INT(deadlock_detector_feed(s.det, NULL, 0), MG_ERROR_EINVAL);
    MG_CHECK_INT(deadlock_detector_feed(
                     s.det, &(check_event){.kind = 1, .rank = -1, .func = CHECK_EVENT_FN_SEND}, 0),
                 MG_ERROR_EINVAL);
    ev.rank = 1;
    ev.func = CHECK_EVENT_FN_COUNT;
    MG_CHECK_INT(st_feed_rc(&s, &ev), MG_ERROR_EINVAL);
    ev = st_event(3, 1, CHECK_EVENT_FN_SEND);
    MG_CHECK_INT(st_feed_rc(&s, &ev), MG_ERROR_EINVAL);
    ev = st_event(CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_WAITALL);
    ev.n_requests = 2; /* and no array */
    MG_CHECK_INT(st_feed_rc(&s, &ev), MG_ERROR_EINVAL);
    ev = st_event(CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_SEND);
    ev.peer = 7; /* outside the world */
    MG_CHECK_INT(st_feed_rc(&s, &ev), MG_ERROR_EINVAL);
    ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_BARRIER);
    ev.comm = 999; /* a communicator nobody created */
    MG_CHECK_INT(st_feed_rc(&s, &ev), MG_ERROR_ENOENT);
    ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_INIT);
    ev.seq = 5;
    MG_CHECK_INT(deadlock_detector_feed(s.det, &ev, 1), MG_ERROR_OK);
    MG_CHECK_INT(deadlock_detector_feed(s.det, &ev, 2), MG_ERROR_ESTATE); /* same sequence number */
    ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_WAIT);
    ev.request = 0; /* MPI_REQUEST_NULL: returns at once */
    ev.seq = 6;
    MG_CHECK_INT(deadlock_detector_feed(s.det, &ev, 3), MG_ERROR_OK);
    ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_REQUEST_FREE);
    ev.request = 1234;
    ev.seq = 7;
    MG_CHECK_INT(deadlock_detector_feed(s.det, &ev, 3), MG_ERROR_EFORMAT);
    MG_CHECK_INT(deadlock_detector_process_lost(s.det, 2, 0), MG_ERROR_EINVAL);
    size_t n;
    MG_CHECK(deadlock_detector_findings(NULL, &n) == NULL && n == 0);
    MG_CHECK_STR(dl_finding_kind_name(DL_FINDING_POTENTIAL_DEADLOCK), "POTENTIAL_DEADLOCK");
    MG_CHECK_STR(dl_finding_kind_name(0), "UNKNOWN");
    st_close(&s);
}

/* Records fed as bytes, as an agent would: corrupted bytes are refused and nothing changes. */
static void test_feed_bytes(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    uint8_t buf[512];
    size_t len, used;
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_RECV);
    ev.peer = 1;
    ev.seq = 1;
    MG_CHECK_INT(check_event_encode(&ev, buf, sizeof buf, &len), MG_ERROR_OK);
    buf[30] ^= 4;
    MG_CHECK_INT(deadlock_detector_feed_bytes(s.det, buf, len, 1, &used), MG_ERROR_EFORMAT);
    buf[30] ^= 4;
    MG_CHECK_INT(deadlock_detector_feed_bytes(s.det, buf, len - 1, 1, &used), MG_ERROR_EFORMAT);
    MG_CHECK_INT(deadlock_detector_feed_bytes(s.det, buf, len, 1, &used), MG_ERROR_OK);
    MG_CHECK_INT(used, len);
    MG_CHECK_INT(deadlock_detector_feed_bytes(NULL, buf, len, 1, &used), MG_ERROR_EINVAL);
    ev = st_event(CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_RECV);
    ev.peer = 0;
    ev.seq = 1;
    MG_CHECK_INT(check_event_encode(&ev, buf, sizeof buf, &len), MG_ERROR_OK);
    MG_CHECK_INT(deadlock_detector_feed_bytes(s.det, buf, len, 2, &used), MG_ERROR_OK);
    MG_CHECK_INT(st_check(&s), 1);
    st_close(&s);
}

int main(void)
{
    MG_RUN(test_cycles);
    MG_RUN(test_waiting_for_knot);
    MG_RUN(test_blocked_not_deadlocked);
    MG_RUN(test_real_and_potential_apart);
    MG_RUN(test_collective_mismatches);
    MG_RUN(test_collective_order);
    MG_RUN(test_collective_mismatch_any_order);
    MG_RUN(test_collective_deadlock);
    MG_RUN(test_nonblocking_collective);
    MG_RUN(test_multi_completion_clean);
    MG_RUN(test_waitall_wildcards_deadlock);
    MG_RUN(test_waitany_deadlock);
    MG_RUN(test_persistent);
    MG_RUN(test_persistent_deadlock);
    MG_RUN(test_persistent_wildcard_held);
    MG_RUN(test_sendrecv_ring);
    MG_RUN(test_split);
    MG_RUN(test_master_worker);
    MG_RUN(test_terminated_peer);
    MG_RUN(test_vanished_at_last_call);
    MG_RUN(test_probe);
    MG_RUN(test_matched_probe);
    MG_RUN(test_matched_probe_types);
    MG_RUN(test_test_and_cancel);
    MG_RUN(test_test_family);
    MG_RUN(test_tags_and_order);
    MG_RUN(test_comm_self);
    MG_RUN(test_intercomm);
    MG_RUN(test_bsend);
    MG_RUN(test_bad_arguments);
    MG_RUN(test_feed_bytes);
    MG_TEST_END();
}
