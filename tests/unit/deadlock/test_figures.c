/* The paper's figures as record streams (Hilbrich et al. 2013, "MPI runtime error detection with
 * MUST", Figs. 1, 4, 8, 9): each asserts the exact finding kind, knot and waiting ranks, or a clean
 * result. */
#include "dl_stream.h"

/* Fig. 1a: send-recv, clean. */
static void test_fig1a_clean(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    ST_SEND(&s, 0, 1, 1);
    ST_RECV(&s, 1, 0, 1);
    MG_CHECK_INT(st_check(&s), 0);
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.queued_sends, 0);
    MG_CHECK_INT(q.pending_recvs, 0);
    MG_CHECK_INT(q.blocked_processes, 0);
    MG_CHECK(!deadlock_detector_is_every_live_process_blocked(s.det));
    st_close(&s);
}

/* Fig. 1b: recv-recv deadlock, both in the knot, AND arcs 0->1 and 1->0 (Fig. 3a). */
static void test_fig1b_recv_recv(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    ST_RECV(&s, 0, 1, 0);
    ST_RECV(&s, 1, 0, 0);
    MG_CHECK(deadlock_detector_is_every_live_process_blocked(s.det));
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK_INT(n, 1);
    int32_t knot[] = {0, 1};
    MG_CHECK(st_knot_is(f, knot, 2));
    if (f) {
        MG_CHECK_INT(f->calls[0].func, CHECK_EVENT_FN_RECV);
        MG_CHECK_INT(f->calls[0].peer, 1);
        MG_CHECK_INT(f->calls[0].callsite, 0x1000u + CHECK_EVENT_FN_RECV);
        MG_CHECK_INT(f->graph.n_nodes, 2);
        MG_CHECK_INT(f->graph.n_arcs, 2);
        MG_CHECK(!wait_graph_arc_is_or(&f->graph, 0));
    }
    /* A second check reports nothing new. */
    MG_CHECK_INT(st_check(&s), 0);
    st_close(&s);
}

/* Fig. 1c: send-send; the sends really block (no exits): a deadlock. */
static void test_fig1c_send_send_blocked(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    ST_SEND(&s, 0, 1, 0);
    ST_SEND(&s, 1, 0, 0);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    int32_t knot[] = {0, 1};
    MG_CHECK(st_knot_is(f, knot, 2));
    MG_CHECK(f && f->calls[1].func == CHECK_EVENT_FN_SEND);
    st_close(&s);
}

/* Fig. 1c with MPI buffering the sends: a potential deadlock, then a clean run. */
static void test_fig1c_send_send_buffered(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    ST_SEND(&s, 0, 1, 1);
    ST_RECV(&s, 0, 1, 1);
    ST_SEND(&s, 1, 0, 1);
    ST_RECV(&s, 1, 0, 1);
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.held_records, 6);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n, nd;
    const dl_finding *f = st_find(&s, DL_FINDING_POTENTIAL_DEADLOCK, &n);
    MG_CHECK_INT(n, 1);
    int32_t knot[] = {0, 1};
    MG_CHECK(st_knot_is(f, knot, 2));
    st_find(&s, DL_FINDING_DEADLOCK, &nd);
    MG_CHECK_INT(nd, 0);
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.held_records, 0);
    MG_CHECK_INT(q.queued_sends, 0);
    MG_CHECK_INT(q.pending_recvs, 0);
    st_close(&s);
}

/* With standard sends modelled as buffered the same stream is clean; Ssend still deadlocks. */
static void test_buffered_option(void)
{
    dl_params prm;
    dl_params_default(&prm);
    prm.buffered_standard_sends = 1;
    dl_stream s;
    st_open(&s, 2, &prm);
    ST_SEND(&s, 0, 1, 1);
    ST_RECV(&s, 0, 1, 1);
    ST_SEND(&s, 1, 0, 1);
    ST_RECV(&s, 1, 0, 1);
    MG_CHECK_INT(st_check(&s), 0);
    st_p2p(&s, 0, CHECK_EVENT_FN_SSEND, CHECK_EVENT_COMM_WORLD, 1, 0, 0, 0);
    st_p2p(&s, 1, CHECK_EVENT_FN_SSEND, CHECK_EVENT_COMM_WORLD, 0, 0, 0, 0);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    st_find(&s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK_INT(n, 1);
    st_close(&s);
}

/* Fig. 1d, the interleaving that deadlocks (rank 1's wildcard got rank 2's message): the send of
 * rank 0 that MPI buffered is a potential deadlock; then ranks 1 and 2 form the knot with rank 0
 * waiting in the barrier (Fig. 3b). */
static void test_fig1d_schedule_dependent(void)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    ST_SEND(&s, 0, 1, 1);
    st_coll(&s, 0, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 0);
    ST_SEND(&s, 2, 1, 1);
    st_coll(&s, 2, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 0);
    ST_RECV(&s, 1, CHECK_EVENT_ANY_SOURCE, 0);
    st_recv_exit(&s, 1, CHECK_EVENT_FN_RECV, 2, 0);
    ST_RECV(&s, 1, 2, 0);
    MG_CHECK(deadlock_detector_is_every_live_process_blocked(s.det));
    MG_CHECK_INT(st_check(&s), 2);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK_INT(n, 1);
    int32_t knot[] = {1, 2}, waiting[] = {0};
    MG_CHECK(st_knot_is(f, knot, 2));
    MG_CHECK(st_waiting_is(f, waiting, 1));
    MG_CHECK(f && (f->notes & DL_FINDING_NOTE_BUFFER_RELEASED));
    MG_CHECK(f && f->calls[1].func == CHECK_EVENT_FN_BARRIER);
    st_find(&s, DL_FINDING_POTENTIAL_DEADLOCK, &n);
    MG_CHECK_INT(n, 1);
    st_close(&s);
}

/* Fig. 4: Waitall on wildcard receives of communicators A = {0,1,2} and B = {0,2,3}. The graph
 * is Fig. 6c: two request nodes with three OR arcs each; every node is in the knot. */
static void test_fig4_and_or(void)
{
    dl_stream s;
    st_open(&s, 4, NULL);
    const uint64_t A = 100, B = 101;
    int32_t a[] = {0, 1, 2}, b[] = {0, 2, 3};
    for (int32_t r = 0; r < 4; r++) {
        st_split(&s, r, CHECK_EVENT_COMM_WORLD, r == 3 ? CHECK_EVENT_COMM_NULL : A, a, 3);
    }
    for (int32_t r = 0; r < 4; r++) {
        st_split(&s, r, CHECK_EVENT_COMM_WORLD, r == 1 ? CHECK_EVENT_COMM_NULL : B, b, 3);
    }
    uint64_t reqs[] = {11, 12};
    st_p2p(&s, 0, CHECK_EVENT_FN_IRECV, A, CHECK_EVENT_ANY_SOURCE, 0, 11, 1);
    st_p2p(&s, 0, CHECK_EVENT_FN_IRECV, B, CHECK_EVENT_ANY_SOURCE, 0, 12, 1);
    st_wait_enter(&s, 0, CHECK_EVENT_FN_WAITALL, reqs, 2);
    ST_RECV(&s, 1, 2, 0);
    ST_RECV(&s, 2, 0, 0);
    ST_RECV(&s, 3, 2, 0);
    MG_CHECK_INT(st_check(&s), 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    int32_t knot[] = {0, 1, 2, 3};
    MG_CHECK(st_knot_is(f, knot, 4));
    if (f) {
        MG_CHECK_INT(f->graph.n_nodes, 6);
        MG_CHECK_INT(f->graph.n_arcs, 11);
        size_t or_arcs = 0, requests = 0;
        for (size_t i = 0; i < f->graph.n_arcs; i++) {
            or_arcs += (size_t)wait_graph_arc_is_or(&f->graph, i);
        }
        for (size_t v = 0; v < f->graph.n_nodes; v++) {
            if (f->graph.nodes[v].type == WAIT_GRAPH_REQUEST) {
                requests++;
                MG_CHECK(f->graph.nodes[v].aux == 11 || f->graph.nodes[v].aux == 12);
                MG_CHECK_INT(f->graph.nodes[v].rank, 0);
                MG_CHECK_INT(f->graph.nodes[v].func, CHECK_EVENT_FN_IRECV);
                MG_CHECK_INT(f->graph.nodes[v].callsite, 0x1000u + CHECK_EVENT_FN_IRECV);
                MG_CHECK(f->graph.nodes[v].comm == (f->graph.nodes[v].aux == 11 ? A : B));
            }
        }
        MG_CHECK_INT(or_arcs, 6);
        MG_CHECK_INT(requests, 2);
        MG_CHECK_INT(f->calls[0].func, CHECK_EVENT_FN_WAITALL);
    }
    st_close(&s);
}

/* Fig. 8: the Waitall hangs, so no completion tells which send the wildcard took. The base
 * analysis sees no deadlock; probing the match with rank 2 finds it. */
static void test_fig8_probing(void)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    ST_SEND(&s, 0, 1, 1);
    st_coll(&s, 0, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 0);
    uint64_t reqs[] = {21, 22};
    st_p2p(&s, 1, CHECK_EVENT_FN_IRECV, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_ANY_SOURCE, 0, 21, 1);
    st_p2p(&s, 1, CHECK_EVENT_FN_IRECV, CHECK_EVENT_COMM_WORLD, 2, 0, 22, 1);
    st_wait_enter(&s, 1, CHECK_EVENT_FN_WAITALL, reqs, 2);
    ST_SEND(&s, 2, 1, 1);
    st_coll(&s, 2, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 0);
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.undecided, 1);
    MG_CHECK(st_check(&s) >= 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK_INT(n, 1);
    int32_t knot[] = {1, 2}, waiting[] = {0};
    MG_CHECK(st_knot_is(f, knot, 2));
    MG_CHECK(st_waiting_is(f, waiting, 1));
    MG_CHECK(f && (f->notes & DL_FINDING_NOTE_PROBED));
    MG_CHECK(f && f->probe_rank == 1 && f->probe_source == 2 && f->probe_request == 21);
    /* Probing works on copies: the detector itself still waits for the decision. */
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.undecided, 1);
    /* Without new records a second check does not probe again. */
    MG_CHECK_INT(st_check(&s), 0);
    st_close(&s);
}

/* Fig. 8 with probing off: no finding (the deadlock needs a decision nobody reported). */
static void test_fig8_no_probing(void)
{
    dl_params prm;
    dl_params_default(&prm);
    prm.probing = 0;
    dl_stream s;
    st_open(&s, 3, &prm);
    ST_SEND(&s, 0, 1, 1);
    st_coll(&s, 0, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 0);
    uint64_t reqs[] = {21, 22};
    st_p2p(&s, 1, CHECK_EVENT_FN_IRECV, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_ANY_SOURCE, 0, 21, 1);
    st_p2p(&s, 1, CHECK_EVENT_FN_IRECV, CHECK_EVENT_COMM_WORLD, 2, 0, 22, 1);
    st_wait_enter(&s, 1, CHECK_EVENT_FN_WAITALL, reqs, 2);
    ST_SEND(&s, 2, 1, 1);
    st_coll(&s, 2, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 0);
    MG_CHECK_INT(st_check(&s), 0);
    st_close(&s);
}

/* Fig. 9: the wildcard's completion comes late while records of the senders pile up; deciding
 * forces the match with the first sender and says so. */
static void test_fig9_deciding(void)
{
    dl_params prm;
    dl_params_default(&prm);
    prm.decide_backlog = 4;
    dl_stream s;
    st_open(&s, 3, &prm);
    uint64_t r0 = 31, r1 = 41, r2 = 51;
    st_p2p(&s, 0, CHECK_EVENT_FN_IRECV, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_ANY_SOURCE, 0, r0, 1);
    st_p2p(&s, 1, CHECK_EVENT_FN_ISEND, CHECK_EVENT_COMM_WORLD, 0, 0, r1, 1);
    st_p2p(&s, 2, CHECK_EVENT_FN_ISEND, CHECK_EVENT_COMM_WORLD, 0, 0, r2, 1);
    st_wait_enter(&s, 1, CHECK_EVENT_FN_WAIT, &r1, 1);
    st_wait_exit(&s, 1, CHECK_EVENT_FN_WAIT, &r1, 1, NULL, 0, 1);
    st_wait_enter(&s, 2, CHECK_EVENT_FN_WAIT, &r2, 1);
    st_wait_exit(&s, 2, CHECK_EVENT_FN_WAIT, &r2, 1, NULL, 0, 1);
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.forced_decisions, 0);
    MG_CHECK_INT(q.held_records, 2);
    for (int i = 0; i < 3; i++) { /* "long communication": records held behind the Waits */
        st_p2p(&s, 1, CHECK_EVENT_FN_IPROBE, CHECK_EVENT_COMM_WORLD, 0, 0, 0, 1);
    }
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.forced_decisions, 1);
    MG_CHECK_INT(q.undecided, 0);
    MG_CHECK_INT(q.blocked_processes, 1); /* rank 2: its send has no receive */
    /* The real completion agrees with the forced decision. */
    check_event_status st = {0, 1, 0, 0, 1};
    st_wait_enter(&s, 0, CHECK_EVENT_FN_WAIT, &r0, 1);
    st_wait_exit(&s, 0, CHECK_EVENT_FN_WAIT, &r0, 1, &st, 1, 1);
    /* A later deadlock carries the note that a decision was forced. */
    ST_RECV(&s, 0, 1, 0);
    ST_RECV(&s, 1, 0, 0);
    MG_CHECK(st_check(&s) >= 1);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK(f && (f->notes & DL_FINDING_NOTE_DECISION_FORCED));
    st_close(&s);
}

int main(void)
{
    MG_RUN(test_fig1a_clean);
    MG_RUN(test_fig1b_recv_recv);
    MG_RUN(test_fig1c_send_send_blocked);
    MG_RUN(test_fig1c_send_send_buffered);
    MG_RUN(test_buffered_option);
    MG_RUN(test_fig1d_schedule_dependent);
    MG_RUN(test_fig4_and_or);
    MG_RUN(test_fig8_probing);
    MG_RUN(test_fig8_no_probing);
    MG_RUN(test_fig9_deciding);
    MG_TEST_END();
}
