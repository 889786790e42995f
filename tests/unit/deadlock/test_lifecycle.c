/* The lifecycle checks of issue 28 item 3 (lifecycle.h) over made-up record streams: requests
 * pending or never freed at Finalize grouped by creation site, a persistent request started
 * twice, communicators never freed, messages never received, an exit without Finalize, MPI calls
 * after it. */
#include <string.h>

#include "deadlock_detector.h"
#include "dl_stream.h"
#include "finding_text.h"
#include "lifecycle.h"
#include "mpi_function_ids.h"
#include "mg_test.h"
#include "usage_args.h"

static void finalize(dl_stream *s, int32_t rank)
{
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, rank, CHECK_EVENT_FN_FINALIZE);
    st_feed(s, &ev);
}

/* The lifecycle findings of problem: how many, and the last one. */
static const dl_finding *problem_found(dl_stream *s, uint32_t problem, size_t *count)
{
    size_t n;
    const dl_finding *all = deadlock_detector_findings(s->det, &n), *last = NULL;
    *count = 0;
    for (size_t i = 0; i < n; i++) {
        if (all[i].kind == DL_FINDING_LIFECYCLE && all[i].problem == problem) {
            last = &all[i];
            (*count)++;
        }
    }
    return last;
}

static void test_requests_at_finalize(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    /* rank 0: three Irecvs from one site, one Isend from another; rank 1 sends one message */
    for (uint64_t id = 1; id <= 3; id++)
        st_p2p(&s, 0, CHECK_EVENT_FN_IRECV, CHECK_EVENT_COMM_WORLD, 1, (int32_t)id, id, 1);
    st_p2p(&s, 0, CHECK_EVENT_FN_ISEND, CHECK_EVENT_COMM_WORLD, 1, 9, 4, 1);
    ST_SEND(&s, 1, 0, 1);
    st_p2p(&s, 1, CHECK_EVENT_FN_IRECV, CHECK_EVENT_COMM_WORLD, 0, 9, 5, 1);
    uint64_t done = 5;
    check_event_status st = {0, 0, 9, 0, 1};
    st_wait_enter(&s, 1, CHECK_EVENT_FN_WAIT, &done, 1);
    st_wait_exit(&s, 1, CHECK_EVENT_FN_WAIT, &done, 1, &st, 1, 1);
    finalize(&s, 0);
    finalize(&s, 1);
    size_t n;
    const dl_finding *f = problem_found(&s, DL_FINDING_LIFECYCLE_REQUEST_PENDING, &n);
    MG_CHECK_INT(n, 2); /* the Irecv site (count 3) and the Isend site (count 1), rank 0 only */
    size_t all;
    const dl_finding *list = deadlock_detector_findings(s.det, &all);
    int irecvs = 0, isends = 0;
    for (size_t i = 0; i < all; i++) {
        if (list[i].kind != DL_FINDING_LIFECYCLE)
            continue;
        MG_CHECK_INT(list[i].calls[0].rank, 0);
        MG_CHECK(list[i].calls[0].made_it);
        if (list[i].calls[0].func == CHECK_EVENT_FN_IRECV && list[i].count == 3 &&
            list[i].calls[0].callsite == 0x1000u + CHECK_EVENT_FN_IRECV)
            irecvs++;
        if (list[i].calls[0].func == CHECK_EVENT_FN_ISEND && list[i].count == 1)
            isends++;
    }
    MG_CHECK_INT(irecvs, 1);
    MG_CHECK_INT(isends, 1);
    MG_CHECK(f != NULL);
    MG_CHECK_STR(lifecycle_problem_name(DL_FINDING_LIFECYCLE_REQUEST_PENDING), "request_not_completed");
    MG_CHECK_STR(lifecycle_problem_name(DL_FINDING_LIFECYCLE_PROBLEM_END), "unknown");
    st_close(&s);
}

static void persistent(dl_stream *s, int32_t rank, uint16_t func, int32_t peer, uint64_t id)
{
    st_p2p(s, rank, func, CHECK_EVENT_COMM_WORLD, peer, 0, id, 1);
}

static void start(dl_stream *s, int32_t rank, uint64_t id)
{
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, rank, CHECK_EVENT_FN_START);
    ev.request = id;
    st_feed(s, &ev);
    ev = st_event(CHECK_EVENT_EV_EXIT, rank, CHECK_EVENT_FN_START);
    ev.request = id;
    st_feed(s, &ev);
}

static void test_persistent(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    persistent(&s, 0, CHECK_EVENT_FN_SEND_INIT, 1, 1);
    persistent(&s, 1, CHECK_EVENT_FN_RECV_INIT, 0, 1);
    start(&s, 1, 1);
    start(&s, 1, 1); /* active: refused, reported, nothing posted */
    size_t n;
    const dl_finding *f = problem_found(&s, DL_FINDING_LIFECYCLE_REQUEST_RESTARTED, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK(f && f->calls[0].rank == 1 && f->calls[0].func == CHECK_EVENT_FN_START &&
             f->calls[0].peer == 0 && !f->calls[0].made_it);
    /* the request's creation follows the Start: the Recv_init's own site */
    MG_CHECK(f && f->n_calls == 2 && f->calls[1].made_it && f->calls[1].rank == 1 &&
             f->calls[1].func == CHECK_EVENT_FN_RECV_INIT &&
             f->calls[1].callsite == 0x1000u + CHECK_EVENT_FN_RECV_INIT);
    start(&s, 0, 1);
    uint64_t id = 1;
    check_event_status st = {0, 0, 0, 0, 1};
    for (int32_t r = 0; r < 2; r++) {
        st_wait_enter(&s, r, CHECK_EVENT_FN_WAIT, &id, 1);
        st_wait_exit(&s, r, CHECK_EVENT_FN_WAIT, &id, 1, &st, 1, 1);
    }
    /* rank 1 frees its request, rank 0 does not */
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_REQUEST_FREE);
    ev.request = 1;
    st_feed(&s, &ev);
    finalize(&s, 0);
    finalize(&s, 1);
    f = problem_found(&s, DL_FINDING_LIFECYCLE_REQUEST_NOT_FREED, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK(f && f->calls[0].rank == 0 && f->calls[0].func == CHECK_EVENT_FN_SEND_INIT);
    problem_found(&s, DL_FINDING_LIFECYCLE_REQUEST_PENDING, &n);
    MG_CHECK_INT(n, 0);
    problem_found(&s, DL_FINDING_LIFECYCLE_MESSAGE_LOST, &n);
    MG_CHECK_INT(n, 0); /* the one send was received: the refused Start posted nothing */
    st_close(&s);
}

static void comm_free(dl_stream *s, int32_t rank, uint64_t comm)
{
    st_coll(s, rank, CHECK_EVENT_FN_COMM_FREE, comm, CHECK_EVENT_NO_ROOT, 0, 0, 1);
}

static void test_communicators(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    /* each rank splits itself off three times (Comm_free is collective: one-member communicators
     * let one rank free what the other keeps) */
    for (int32_t r = 0; r < 2; r++)
        for (uint64_t id = 100; id < 103; id++)
            st_split(&s, r, CHECK_EVENT_COMM_SELF_FLAG | (uint64_t)r, id + 10 * (uint64_t)r, &r, 1);
    comm_free(&s, 0, 100);
    for (uint64_t id = 110; id < 113; id++)
        comm_free(&s, 1, id); /* rank 1 frees all, rank 0 keeps 101 and 102 */
    finalize(&s, 0);
    finalize(&s, 1);
    size_t n;
    const dl_finding *f = problem_found(&s, DL_FINDING_LIFECYCLE_COMM_LEAK, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK(f && f->calls[0].rank == 0 && f->count == 2 &&
             f->calls[0].func == CHECK_EVENT_FN_COMM_SPLIT &&
             f->calls[0].callsite == 0x1000u + CHECK_EVENT_FN_COMM_SPLIT);
    st_close(&s);
}

/* The capture module's records of handles never freed, one per kind and creation site: each the
 * leak of its kind with its count and maker; a kind the detector does not know is ignored. */
static void test_handle_leaks(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_HANDLE_LEAK);
    ev.aux = CHECK_EVENT_HANDLE_DATATYPE;
    ev.count = 12;
    ev.result = MG_FN_Type_vector;
    st_feed(&s, &ev);
    ev.aux = CHECK_EVENT_HANDLE_INFO;
    ev.count = 1;
    ev.result = MG_FN_Info_dup;
    st_feed(&s, &ev);
    ev.aux = CHECK_EVENT_HANDLE_ERRHANDLER;
    ev.count = 3;
    ev.result = MG_FN_Win_create_errhandler;
    st_feed(&s, &ev);
    ev.aux = CHECK_EVENT_HANDLE_KIND_END;
    st_feed(&s, &ev);
    finalize(&s, 0);
    finalize(&s, 1);
    size_t n;
    const dl_finding *f = problem_found(&s, DL_FINDING_LIFECYCLE_DATATYPE_LEAK, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK(f && f->calls[0].rank == 1 && f->count == 12 &&
             f->calls[0].maker == MG_FN_Type_vector &&
             f->calls[0].callsite == 0x1000u + CHECK_EVENT_FN_HANDLE_LEAK);
    f = problem_found(&s, DL_FINDING_LIFECYCLE_INFO_LEAK, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK(f && f->count == 1 && f->calls[0].maker == MG_FN_Info_dup);
    f = problem_found(&s, DL_FINDING_LIFECYCLE_ERRHANDLER_LEAK, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK(f && f->count == 3 && f->calls[0].maker == MG_FN_Win_create_errhandler);
    size_t all;
    deadlock_detector_findings(s.det, &all);
    MG_CHECK_INT(all, 3);
    st_close(&s);
}

static void test_lost_messages(void)
{
    dl_stream s;
    st_open(&s, 3, NULL);
    for (int i = 0; i < 2; i++)
        st_p2p(&s, 0, CHECK_EVENT_FN_BSEND, CHECK_EVENT_COMM_WORLD, 1, 5, 0, 1);
    st_p2p(&s, 2, CHECK_EVENT_FN_BSEND, CHECK_EVENT_COMM_WORLD, 1, 6, 0, 1);
    finalize(&s, 1);
    finalize(&s, 0);
    size_t n;
    problem_found(&s, DL_FINDING_LIFECYCLE_MESSAGE_LOST, &n);
    MG_CHECK_INT(n, 0); /* rank 2 lives: decided after the last rank */
    finalize(&s, 2);
    const dl_finding *f = problem_found(&s, DL_FINDING_LIFECYCLE_MESSAGE_LOST, &n);
    MG_CHECK_INT(n, 2); /* rank 0's site (2 messages), rank 2's (1) */
    MG_CHECK(f && f->calls[0].peer == 1 && !f->calls[0].made_it); /* a send, not a creation */
    st_close(&s);
}

static void test_exit_without_finalize(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    ST_RECV(&s, 0, 1, 0); /* rank 0 waits for rank 1, which exits */
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_EXIT);
    st_feed(&s, &ev);
    size_t n;
    const dl_finding *f = problem_found(&s, DL_FINDING_LIFECYCLE_NO_FINALIZE, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK(f && f->calls[0].rank == 1 && !f->calls[0].made_it);
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(s.det, &q);
    MG_CHECK_INT(q.live_processes, 1);
    st_check(&s);
    st_find(&s, DL_FINDING_STUCK_ON_TERMINATED, &n);
    MG_CHECK_INT(n, 1);
    st_close(&s);
}

/* Rank 0 calls exit() after its Barrier, rank 1 returns from main, whose exit record has no call
 * site (libc calls exit): rank 1's finding names its last MPI call, the Barrier, at its site, and
 * says so; rank 0's names its exit(). */
static void test_return_from_main_at_last_call(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    for (int kind = CHECK_EVENT_EV_ENTER; kind <= CHECK_EVENT_EV_EXIT; kind++) {
        for (int32_t r = 0; r < 2; r++) {
            check_event ev = st_event(kind, r, CHECK_EVENT_FN_BARRIER);
            ev.callsite = 0x400 + (uint64_t)r;
            st_feed(&s, &ev);
        }
    }
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_EXIT);
    ev.callsite = 0x500;
    st_feed(&s, &ev);
    ev = st_event(CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_EXIT);
    ev.callsite = 0;
    st_feed(&s, &ev);
    size_t n;
    const dl_finding *f = problem_found(&s, DL_FINDING_LIFECYCLE_NO_FINALIZE, &n);
    MG_CHECK_INT(n, 2);
    char text[256];
    finding_text_summary(f - 1, text, sizeof text);
    MG_CHECK_STR(text, "rank 0 ended without calling MPI_Finalize");
    MG_CHECK(f[-1].calls[0].func == CHECK_EVENT_FN_EXIT && f[-1].calls[0].callsite == 0x500);
    MG_CHECK(f->calls[0].rank == 1 && f->calls[0].func == CHECK_EVENT_FN_BARRIER);
    MG_CHECK_INT(f->calls[0].callsite, 0x401);
    finding_text_summary(f, text, sizeof text);
    MG_CHECK_STR(text,
                 "rank 1 ended without calling MPI_Finalize; its last MPI call checked was "
                 "MPI_Barrier");
    st_close(&s);
}

/* Rank 1's MPI_Win_post on a freed group, as the capture module writes it: an entry flagged
 * invalid, never an exit. */
static void invalid_post(dl_stream *s)
{
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_WIN_POST);
    ev.flags = CHECK_EVENT_FLAG_INVALID_ARGUMENTS;
    ev.aux = USAGE_ARGS_GROUP_FREED;
    ev.peer = CHECK_EVENT_PROC_NULL;
    st_feed(s, &ev);
}

/* Rank 1 ends as `how` (0: its process exits, 1: it vanishes, 2: it exits after the call's own
 * entry, which the capture module writes after the flagged one for Win_post) while rank 0 waits
 * on it in a Barrier; `returned`: the invalid call returned first (rank 1 then sent to
 * MPI_PROC_NULL). Returns the findings after the analysis. */
static const dl_finding *end_after_invalid(dl_stream *s, int how, int returned, size_t *n)
{
    st_open(s, 2, NULL);
    st_coll(s, 0, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 0);
    invalid_post(s);
    if (how == 2) {
        check_event ev = st_event(CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_WIN_POST);
        st_feed(s, &ev);
    }
    if (returned)
        ST_SEND(s, 1, CHECK_EVENT_PROC_NULL, 1);
    if (how != 1) {
        check_event ev = st_event(CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_EXIT);
        st_feed(s, &ev);
    } else {
        MG_CHECK_INT(deadlock_detector_process_lost(s->det, 1, ++s->now), MG_ERROR_OK);
    }
    st_check(s);
    return deadlock_detector_findings(s->det, n);
}

/* MPI ends rank 1 inside its call with invalid arguments (MPICH aborts in MPI_Win_post on a freed
 * group): its missing Finalize and rank 0 stuck on it are that bug's consequences, folded into
 * the one invalid-argument finding, which says MPI ended the job inside the call. After a valid
 * last call, both are bugs of their own. */
static void test_ended_inside_invalid_call(void)
{
    dl_stream s;
    size_t n;
    for (int how = 0; how < 3; how++) {
        const dl_finding *all = end_after_invalid(&s, how, 0, &n);
        MG_CHECK_INT(n, 1);
        MG_CHECK(n == 1 && all[0].kind == DL_FINDING_INVALID_ARGUMENTS &&
                 all[0].problem == USAGE_ARGS_GROUP_FREED && all[0].calls[0].rank == 1 &&
                 (all[0].notes & DL_FINDING_NOTE_ENDED_INSIDE));
        st_close(&s);
    }
    const dl_finding *all = end_after_invalid(&s, 0, 1, &n);
    MG_CHECK_INT(n, 3);
    MG_CHECK(n == 3 && all[0].kind == DL_FINDING_INVALID_ARGUMENTS &&
             !(all[0].notes & DL_FINDING_NOTE_ENDED_INSIDE));
    problem_found(&s, DL_FINDING_LIFECYCLE_NO_FINALIZE, &n);
    MG_CHECK_INT(n, 1);
    st_find(&s, DL_FINDING_STUCK_ON_TERMINATED, &n);
    MG_CHECK_INT(n, 1);
    st_close(&s);
}

/* Issue 28's false potential deadlock (mprobe_imrecv_message_null.c under Open MPI): rank 1's
 * Send to rank 0 was buffered and rank 1 went on to MPI_Finalize, while MPI ended rank 0 inside
 * its MPI_Imrecv of MPI_MESSAGE_NULL before its MPI_Mprobe; the analysis runs before rank 1 ends.
 * Rank 1 waits only for the rank that invalid call ended: that bug's consequence, no cycle. */
static void test_buffered_send_to_ended_inside_invalid(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    st_coll(&s, 0, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 1);
    st_coll(&s, 1, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 1);
    ST_SEND(&s, 1, 0, 1);
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_FINALIZE);
    st_feed(&s, &ev);
    ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_IMRECV);
    ev.flags = CHECK_EVENT_FLAG_INVALID_ARGUMENTS;
    ev.aux = USAGE_ARGS_MESSAGE_NULL;
    ev.peer = CHECK_EVENT_PROC_NULL;
    st_feed(&s, &ev);
    MG_CHECK_INT(deadlock_detector_process_lost(s.det, 0, ++s.now), MG_ERROR_OK);
    st_check(&s);
    size_t n;
    st_find(&s, DL_FINDING_POTENTIAL_DEADLOCK, &n);
    MG_CHECK_INT(n, 0);
    const dl_finding *f = st_find(&s, DL_FINDING_INVALID_ARGUMENTS, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK(f && f->problem == USAGE_ARGS_MESSAGE_NULL &&
             (f->notes & DL_FINDING_NOTE_ENDED_INSIDE));
    st_close(&s);
}

/* Rank 0 leaves a Barrier, frees a window already freed and crashes in that call, all before
 * rank 1's Barrier is read (MPICH's second MPI_Win_free, win_freed_free_twice): its records held
 * behind the Barrier are analysed when rank 1's come, after its loss, and the invalid call is
 * reported as the one MPI ended the rank inside. */
static void test_lost_with_records_held(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    st_coll(&s, 0, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 1);
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_WIN_FREE);
    ev.flags = CHECK_EVENT_FLAG_INVALID_ARGUMENTS;
    ev.aux = USAGE_ARGS_WIN_FREED;
    ev.peer = CHECK_EVENT_PROC_NULL;
    st_feed(&s, &ev);
    MG_CHECK_INT(deadlock_detector_process_lost(s.det, 0, ++s.now), MG_ERROR_OK);
    st_coll(&s, 1, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 1);
    st_check(&s);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_INVALID_ARGUMENTS, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK(f && f->problem == USAGE_ARGS_WIN_FREED && f->calls[0].rank == 0 &&
             (f->notes & DL_FINDING_NOTE_ENDED_INSIDE));
    problem_found(&s, DL_FINDING_LIFECYCLE_NO_FINALIZE, &n);
    MG_CHECK_INT(n, 0);
    st_close(&s);
}

/* The error MPI raised in rank 0's call (MPI_ERR_RANK), as the capture module writes it. */
static void raised(dl_stream *s, uint16_t in_func)
{
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_MPI_ERROR);
    ev.aux = 6; /* MPI_ERR_RANK's portable class */
    ev.result = 6;
    ev.callsite = 0x1000u + in_func; /* that call's site */
    st_feed(s, &ev);
}

/* Rank 0 leaves a Barrier, then MPI ends it inside a call: a Send to a rank outside WORLD
 * (`invalid`: the argument checks flagged it), or a Recv MPI raised an error in; all before rank
 * 1's Barrier is read (a tree of detectors' root gets a leaf's records before another's,
 * rank_out_of_range_barrier_4). The error is the last held call's: folded into its
 * invalid-argument finding, or reported on the Recv, as when the records come in time order. */
static void test_error_with_records_held(void)
{
    for (int invalid = 0; invalid < 2; invalid++) {
        dl_stream s;
        st_open(&s, 2, NULL);
        st_coll(&s, 0, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 1);
        check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, invalid ? CHECK_EVENT_FN_SEND : CHECK_EVENT_FN_RECV);
        ev.peer = invalid ? 7 : 1;
        ev.flags = invalid ? CHECK_EVENT_FLAG_INVALID_ARGUMENTS : 0;
        ev.aux = invalid ? USAGE_ARGS_RANK_RANGE : 0;
        st_feed(&s, &ev);
        raised(&s, ev.func);
        MG_CHECK_INT(deadlock_detector_process_lost(s.det, 0, ++s.now), MG_ERROR_OK);
        st_coll(&s, 1, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 1);
        st_check(&s);
        size_t n_invalid, n_raised;
        const dl_finding *f = st_find(&s, DL_FINDING_INVALID_ARGUMENTS, &n_invalid);
        const dl_finding *e = st_find(&s, DL_FINDING_MPI_ERROR, &n_raised);
        MG_CHECK_INT(n_invalid, (size_t)invalid);
        MG_CHECK_INT(n_raised, (size_t)!invalid);
        MG_CHECK(!f || (f->problem == USAGE_ARGS_RANK_RANGE && f->calls[0].rank == 0 &&
                        (f->notes & DL_FINDING_NOTE_ENDED_INSIDE)));
        MG_CHECK(!e || (e->calls[0].rank == 0 && e->calls[0].func == CHECK_EVENT_FN_RECV));
        st_close(&s);
    }
}

/* Rank 0 leaves a Barrier, sends to a rank outside WORLD, then MPI_Abort ends it: called by the
 * program (MPI_ERRORS_RETURN), or by the capture module's handler after the error MPI raised
 * (MPI_ERRORS_ARE_FATAL). `held`: all before rank 1's Barrier is read, as a tree of detectors'
 * root may get them (HELD_PARTNER_LATE), or for good: rank 1 is lost and its Barrier never comes
 * (HELD_PARTNER_GONE: its records went with its ring or its leaf); otherwise in time order. The
 * abort waits behind the held records, so the invalid call is reported in each case, with the
 * same notes: once the partner's records come, or at the analysis when they never do. */
enum { HELD_NONE, HELD_PARTNER_LATE, HELD_PARTNER_GONE };

static const dl_finding *abort_after_invalid(dl_stream *s, int held, int fatal, size_t *n)
{
    st_open(s, 2, NULL);
    st_coll(s, 0, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 1);
    if (!held)
        st_coll(s, 1, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 1);
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_SEND);
    ev.peer = 7;
    ev.flags = CHECK_EVENT_FLAG_INVALID_ARGUMENTS;
    ev.aux = USAGE_ARGS_RANK_RANGE;
    st_feed(s, &ev);
    if (fatal)
        raised(s, CHECK_EVENT_FN_SEND);
    ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_ABORT);
    st_feed(s, &ev);
    if (held == HELD_PARTNER_LATE)
        st_coll(s, 1, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 1);
    if (held == HELD_PARTNER_GONE)
        MG_CHECK_INT(deadlock_detector_process_lost(s->det, 1, ++s->now), MG_ERROR_OK);
    st_check(s);
    return st_find(s, DL_FINDING_INVALID_ARGUMENTS, n);
}

static void test_abort_with_records_held(void)
{
    for (int fatal = 0; fatal < 2; fatal++) {
        dl_stream s;
        size_t n;
        const dl_finding *f = abort_after_invalid(&s, 0, fatal, &n);
        MG_CHECK_INT(n, 1);
        uint32_t in_order = f ? f->notes : 0;
        st_close(&s);
        for (int held = HELD_PARTNER_LATE; held <= HELD_PARTNER_GONE; held++) {
            f = abort_after_invalid(&s, held, fatal, &n);
            MG_CHECK_INT(n, 1);
            MG_CHECK(f && f->problem == USAGE_ARGS_RANK_RANGE && f->calls[0].rank == 0 &&
                     f->calls[0].func == CHECK_EVENT_FN_SEND && f->calls[0].peer == 7);
            MG_CHECK(f && f->notes == in_order);
            st_find(&s, DL_FINDING_MPI_ERROR, &n);
            MG_CHECK_INT(n, 0); /* folded into the invalid call's finding */
            const dl_finding *lost = problem_found(&s, DL_FINDING_LIFECYCLE_NO_FINALIZE, &n);
            MG_CHECK(!lost || lost->calls[0].rank != 0); /* rank 0 aborted, not lost */
            st_find(&s, DL_FINDING_STUCK_ON_TERMINATED, &n);
            MG_CHECK_INT(n, 0); /* rank 0 went on from its Barrier */
            deadlock_detector_queues q;
            deadlock_detector_queue_sizes(s.det, &q);
            MG_CHECK_INT(q.held_records, 0);
            st_close(&s);
        }
    }
}

/* Rank 0 exits without Finalize while rank 1 waits for its message; MPICH's launcher then kills
 * rank 1, whose end a tree of detectors' root may read with rank 0's exit, no analysis between
 * (stuck_on_terminated_no_finalize). Rank 1 was stuck on rank 0 all the same. */
static void test_lost_while_stuck(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    ST_RECV(&s, 1, 0, 0);
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 0, CHECK_EVENT_FN_EXIT);
    st_feed(&s, &ev);
    MG_CHECK_INT(deadlock_detector_process_lost(s.det, 1, ++s.now), MG_ERROR_OK);
    st_check(&s);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_STUCK_ON_TERMINATED, &n);
    MG_CHECK_INT(n, 1);
    static const int32_t waiting[] = {1}, knot[] = {0};
    MG_CHECK(f && st_waiting_is(f, waiting, 1) && st_knot_is(f, knot, 1));
    problem_found(&s, DL_FINDING_LIFECYCLE_NO_FINALIZE, &n);
    MG_CHECK_INT(n, 1);
    st_close(&s);
}

/* Rank 0 sends tags 0 then 1 to rank 1 (MPI buffers both) and finalizes; rank 1 receives tag 1
 * first and is lost inside that Recv. `in_flight`: the records of rank 0 after its first Send's
 * entry reach the detector after rank 1's loss, as from a slower leaf. The wait-for analysis
 * must not take rank 0 for stuck in that Send: the finding is the one time order gives, a
 * program relying on MPI's buffering, not a deadlock. */
static void lost_before_partner(dl_stream *s, int in_flight)
{
    st_open(s, 2, NULL);
    st_p2p(s, 0, CHECK_EVENT_FN_SEND, CHECK_EVENT_COMM_WORLD, 1, 0, 0, 0);
    check_event exit0 = st_event(CHECK_EVENT_EV_EXIT, 0, CHECK_EVENT_FN_SEND);
    if (!in_flight)
        st_feed(s, &exit0);
    st_p2p(s, 1, CHECK_EVENT_FN_RECV, CHECK_EVENT_COMM_WORLD, 0, 1, 0, 0);
    if (in_flight)
        MG_CHECK_INT(deadlock_detector_process_lost(s->det, 1, ++s->now), MG_ERROR_OK);
    if (in_flight)
        st_feed(s, &exit0);
    st_p2p(s, 0, CHECK_EVENT_FN_SEND, CHECK_EVENT_COMM_WORLD, 1, 1, 0, 1);
    finalize(s, 0);
    if (!in_flight)
        MG_CHECK_INT(deadlock_detector_process_lost(s->det, 1, ++s->now), MG_ERROR_OK);
    st_check(s);
}

static void test_lost_before_partner_records(void)
{
    size_t in_order[2], n;
    for (int in_flight = 0; in_flight < 2; in_flight++) {
        dl_stream s;
        lost_before_partner(&s, in_flight);
        st_find(&s, DL_FINDING_DEADLOCK, &n);
        MG_CHECK_INT(n, 0);
        st_find(&s, DL_FINDING_STUCK_ON_TERMINATED, &n);
        MG_CHECK_INT(n, 0);
        const dl_finding *f = st_find(&s, DL_FINDING_POTENTIAL_DEADLOCK, &n);
        MG_CHECK_INT(n, 1);
        static const int32_t both[] = {0, 1};
        MG_CHECK(f && st_knot_is(f, both, 2));
        size_t all;
        deadlock_detector_findings(s.det, &all);
        if (!in_flight)
            in_order[0] = all;
        else
            in_order[1] = all;
        st_close(&s);
    }
    MG_CHECK_INT(in_order[1], in_order[0]);
}

static void after_finalize(dl_stream *s, int32_t rank, uint16_t fn, uint64_t site)
{
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, rank, CHECK_EVENT_FN_AFTER_FINALIZE);
    ev.result = fn;
    ev.callsite = site;
    st_feed(s, &ev);
}

/* A call after Finalize is reported with its function and site, also when the rank's records were
 * held behind a collective the other rank had not entered yet; nothing before Finalize is. */
static void test_call_after_finalize(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    st_coll(&s, 0, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 1);
    finalize(&s, 0);
    after_finalize(&s, 0, MG_FN_Send, 0x1234);
    size_t n;
    problem_found(&s, DL_FINDING_LIFECYCLE_CALL_AFTER_FINALIZE, &n);
    MG_CHECK_INT(n, 0); /* held behind rank 0's barrier */
    st_coll(&s, 1, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 1);
    const dl_finding *f = problem_found(&s, DL_FINDING_LIFECYCLE_CALL_AFTER_FINALIZE, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK(f && f->calls[0].rank == 0 && f->calls[0].maker == MG_FN_Send &&
             f->calls[0].callsite == 0x1234);
    finalize(&s, 1);
    after_finalize(&s, 1, MG_FN_NONE, 0x5678); /* a call mpiguard does not wrap */
    f = problem_found(&s, DL_FINDING_LIFECYCLE_CALL_AFTER_FINALIZE, &n);
    MG_CHECK_INT(n, 2);
    MG_CHECK(f && f->calls[0].rank == 1 && f->calls[0].maker == MG_FN_NONE);
    MG_CHECK_STR(lifecycle_problem_name(DL_FINDING_LIFECYCLE_CALL_AFTER_FINALIZE), "call_after_finalize");
    st_close(&s);
}

/* Requests no peer completes (issue 28): a file request is complete at once, a generalized one
 * once Grequest_complete is fed. Never waited, each is pending at Finalize; a Wait on a
 * generalized request not completed waits for its own rank (a deadlock with rank 1 in a Barrier);
 * the unmodelled calls a rank made are listed once each. */
static void test_local_requests(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    uint64_t file = 1, greq = 2, done_greq = 3;
    st_p2p(&s, 0, CHECK_EVENT_FN_FILE_IWRITE_AT, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_PROC_NULL, 0, file, 1);
    st_p2p(&s, 0, CHECK_EVENT_FN_GREQUEST_START, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_PROC_NULL, 0, done_greq, 1);
    st_p2p(&s, 0, CHECK_EVENT_FN_GREQUEST_COMPLETE, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_PROC_NULL, 0, done_greq, 1);
    /* a Wait on the completed one returns: nothing blocks */
    st_wait_enter(&s, 0, CHECK_EVENT_FN_WAIT, &done_greq, 1);
    st_wait_exit(&s, 0, CHECK_EVENT_FN_WAIT, &done_greq, 1, NULL, 0, 1);
    check_event un = st_event(CHECK_EVENT_EV_EXIT, 1, CHECK_EVENT_FN_UNMODELLED);
    for (int k = 0; k < 3; k++) {
        un.result = k == 1 ? MG_FN_Comm_idup : MG_FN_Rput;
        st_feed(&s, &un);
    }
    mpi_function_ids_fn fns[4];
    MG_CHECK_INT(deadlock_detector_unmodelled(s.det, fns, 4), 2);
    MG_CHECK(fns[0] == MG_FN_Comm_idup && fns[1] == MG_FN_Rput);
    MG_CHECK_INT(deadlock_detector_unmodelled(s.det, fns, 1), 1);
    MG_CHECK_INT(deadlock_detector_unmodelled(NULL, fns, 4), 0);
    st_p2p(&s, 0, CHECK_EVENT_FN_GREQUEST_START, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_PROC_NULL, 0, greq, 1);
    st_wait_enter(&s, 0, CHECK_EVENT_FN_WAIT, &greq, 1);
    st_coll(&s, 1, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 0);
    st_check(&s);
    size_t n;
    const dl_finding *f = st_find(&s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK_INT(n, 1);
    const int32_t self[] = {0}, barrier[] = {1};
    MG_CHECK(st_knot_is(f, self, 1));
    MG_CHECK(st_waiting_is(f, barrier, 1));
    st_close(&s);

    st_open(&s, 1, NULL);
    st_p2p(&s, 0, CHECK_EVENT_FN_FILE_IREAD, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_PROC_NULL, 0, file, 1);
    st_p2p(&s, 0, CHECK_EVENT_FN_GREQUEST_START, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_PROC_NULL, 0, greq, 1);
    finalize(&s, 0);
    problem_found(&s, DL_FINDING_LIFECYCLE_REQUEST_PENDING, &n);
    MG_CHECK_INT(n, 2); /* two creation sites */
    st_close(&s);
}

/* The request of a request-based one-sided access (Rput, Rget, Raccumulate, Rget_accumulate) is
 * complete when made, as its target takes no part: a Wait on it returns, one never completed is
 * pending at Finalize with its creation, and one MPI refused is forgotten. */
static void test_rma_requests(void)
{
    dl_stream s;
    st_open(&s, 2, NULL);
    uint64_t waited = 1;
    st_p2p(&s, 0, CHECK_EVENT_FN_RACCUMULATE, CHECK_EVENT_COMM_WORLD, 1, 0, waited, 1);
    st_wait_enter(&s, 0, CHECK_EVENT_FN_WAIT, &waited, 1);
    st_coll(&s, 1, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 0);
    size_t n;
    st_check(&s);
    st_find(&s, DL_FINDING_DEADLOCK, &n);
    MG_CHECK_INT(n, 0); /* rank 0's Wait returns: only rank 1 is blocked, on rank 0 */
    check_event_status st = {0, CHECK_EVENT_PROC_NULL, CHECK_EVENT_ANY_TAG, 0, 0};
    st_wait_exit(&s, 0, CHECK_EVENT_FN_WAIT, &waited, 1, &st, 1, 1);
    st_coll(&s, 0, CHECK_EVENT_FN_BARRIER, CHECK_EVENT_COMM_WORLD, CHECK_EVENT_NO_ROOT, 0, 0, 1);
    st_p2p(&s, 1, CHECK_EVENT_FN_RGET_ACCUMULATE, CHECK_EVENT_COMM_WORLD, 0, 0, 2, 1);
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, 1, CHECK_EVENT_FN_RPUT);
    ev.request = 3;
    st_feed(&s, &ev);
    ev = st_event(CHECK_EVENT_EV_EXIT, 1, CHECK_EVENT_FN_RPUT);
    ev.request = 3;
    ev.flags = CHECK_EVENT_FLAG_REFUSED;
    st_feed(&s, &ev);
    finalize(&s, 0);
    finalize(&s, 1);
    const dl_finding *f = problem_found(&s, DL_FINDING_LIFECYCLE_REQUEST_PENDING, &n);
    MG_CHECK_INT(n, 1);
    MG_CHECK(f && f->count == 1 && f->calls[0].rank == 1 && f->calls[0].made_it &&
             f->calls[0].func == CHECK_EVENT_FN_RGET_ACCUMULATE);
    st_close(&s);
}

int main(void)
{
    MG_RUN(test_requests_at_finalize);
    MG_RUN(test_persistent);
    MG_RUN(test_communicators);
    MG_RUN(test_handle_leaks);
    MG_RUN(test_lost_messages);
    MG_RUN(test_exit_without_finalize);
    MG_RUN(test_return_from_main_at_last_call);
    MG_RUN(test_ended_inside_invalid_call);
    MG_RUN(test_buffered_send_to_ended_inside_invalid);
    MG_RUN(test_lost_with_records_held);
    MG_RUN(test_error_with_records_held);
    MG_RUN(test_abort_with_records_held);
    MG_RUN(test_lost_while_stuck);
    MG_RUN(test_lost_before_partner_records);
    MG_RUN(test_call_after_finalize);
    MG_RUN(test_local_requests);
    MG_RUN(test_rma_requests);
    MG_TEST_END();
}
