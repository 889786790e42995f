/* Test helper: writes hand-made record streams into a detector, one call per line of a figure.
 * Each helper assigns the rank's next sequence number and checks the feed succeeded. */
#ifndef DL_STREAM_H
#define DL_STREAM_H

#include <stdlib.h>
#include <string.h>

#include "deadlock_detector.h"
#include "mg_error.h"
#include "mg_test.h"

#define DL_MAX_RANKS 64

typedef struct dl_stream {
    deadlock_detector *det;
    uint64_t seq[DL_MAX_RANKS];
    uint64_t now;
} dl_stream;

static inline void st_open(dl_stream *s, int32_t world, const dl_params *prm)
{
    memset(s, 0, sizeof *s);
    MG_CHECK_INT(deadlock_detector_create(prm, world, &s->det), MG_ERROR_OK);
}

static inline void st_close(dl_stream *s)
{
    deadlock_detector_destroy(s->det);
}

static inline check_event st_event(int kind, int32_t rank, uint16_t func)
{
    check_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = (uint8_t)kind;
    ev.rank = rank;
    ev.func = func;
    ev.comm = CHECK_EVENT_COMM_WORLD;
    ev.root = CHECK_EVENT_NO_ROOT;
    ev.callsite = 0x1000u + (uint64_t)func; /* a recognisable call site */
    return ev;
}

/* Feeds ev with the rank's next sequence number; returns the feed's status. */
static inline int st_feed_rc(dl_stream *s, check_event *ev)
{
    ev->seq = ++s->seq[ev->rank];
    return deadlock_detector_feed(s->det, ev, ++s->now);
}

static inline void st_feed(dl_stream *s, check_event *ev)
{
    MG_CHECK_INT(st_feed_rc(s, ev), MG_ERROR_OK);
}

/* Entry (and exit when `exits`) of a point-to-point call on comm. */
static inline void st_p2p(dl_stream *s, int32_t rank, uint16_t func, uint64_t comm, int32_t peer,
                          int32_t tag, uint64_t request, int exits)
{
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, rank, func);
    ev.comm = comm;
    ev.peer = peer;
    ev.tag = tag;
    ev.request = request;
    ev.count = 1;
    st_feed(s, &ev);
    if (exits) {
        ev = st_event(CHECK_EVENT_EV_EXIT, rank, func);
        ev.comm = comm;
        ev.request = request;
        st_feed(s, &ev);
    }
}

#define ST_SEND(s, r, to, exits) st_p2p(s, r, CHECK_EVENT_FN_SEND, CHECK_EVENT_COMM_WORLD, to, 0, 0, exits)
#define ST_RECV(s, r, from, exits) st_p2p(s, r, CHECK_EVENT_FN_RECV, CHECK_EVENT_COMM_WORLD, from, 0, 0, exits)

/* Exit of a blocking receive with its status. */
static inline void st_recv_exit(dl_stream *s, int32_t rank, uint16_t func, int32_t source,
                                int32_t tag)
{
    check_event_status st = {0, source, tag, 0, 1};
    check_event ev = st_event(CHECK_EVENT_EV_EXIT, rank, func);
    ev.n_statuses = 1;
    ev.statuses = &st;
    st_feed(s, &ev);
}

/* Entry of a Wait-family call on n requests (n == 1 and func Wait/Test: single request). */
static inline void st_wait_enter(dl_stream *s, int32_t rank, uint16_t func, const uint64_t *reqs,
                                 uint32_t n)
{
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, rank, func);
    if (func == CHECK_EVENT_FN_WAIT || func == CHECK_EVENT_FN_TEST) {
        ev.request = reqs[0];
    } else {
        ev.requests = reqs;
        ev.n_requests = n;
    }
    st_feed(s, &ev);
}

/* Exit of a Wait/Test-family call reporting statuses (index, source, tag) and flag `result`. */
static inline void st_wait_exit(dl_stream *s, int32_t rank, uint16_t func, const uint64_t *reqs,
                                uint32_t n, const check_event_status *sts, uint32_t n_st, int32_t result)
{
    check_event ev = st_event(CHECK_EVENT_EV_EXIT, rank, func);
    if (func == CHECK_EVENT_FN_WAIT || func == CHECK_EVENT_FN_TEST) {
        ev.request = reqs[0];
    } else {
        ev.requests = reqs;
        ev.n_requests = n;
    }
    ev.statuses = sts;
    ev.n_statuses = n_st;
    ev.result = result;
    st_feed(s, &ev);
}

/* Entry (and exit) of a collective on comm. */
static inline void st_coll(dl_stream *s, int32_t rank, uint16_t func, uint64_t comm, int32_t root,
                           uint32_t op, uint64_t request, int exits)
{
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, rank, func);
    ev.comm = comm;
    ev.root = root;
    ev.op = op;
    ev.request = request;
    st_feed(s, &ev);
    if (exits) {
        ev = st_event(CHECK_EVENT_EV_EXIT, rank, func);
        ev.comm = comm;
        ev.request = request;
        st_feed(s, &ev);
    }
}

/* MPI_Comm_split on parent by `rank`: entry and exit reporting new communicator `id` with
 * members (id CHECK_EVENT_COMM_NULL: the rank got MPI_COMM_NULL). */
static inline void st_split(dl_stream *s, int32_t rank, uint64_t parent, uint64_t id,
                            const int32_t *members, uint32_t n)
{
    check_event ev = st_event(CHECK_EVENT_EV_ENTER, rank, CHECK_EVENT_FN_COMM_SPLIT);
    ev.comm = parent;
    st_feed(s, &ev);
    ev = st_event(CHECK_EVENT_EV_EXIT, rank, CHECK_EVENT_FN_COMM_SPLIT);
    ev.comm = parent;
    ev.aux = id;
    ev.ranks = id ? members : NULL;
    ev.n_ranks = id ? n : 0;
    ev.n_local = ev.n_ranks;
    st_feed(s, &ev);
}

static inline size_t st_check(dl_stream *s)
{
    size_t n_new = 0;
    MG_CHECK_INT(deadlock_detector_check_now(s->det, ++s->now, &n_new), MG_ERROR_OK);
    return n_new;
}

/* The time of an analysis after `now` that reports the collective mismatch the detector holds
 * while MPI may still refuse one of its calls (their calls then inside MPI longer than a refusal
 * takes): its mismatch_due, or now + 1 when it holds none. */
static inline uint64_t st_held_due(const deadlock_detector *det, uint64_t now)
{
    deadlock_detector_queues q;
    deadlock_detector_queue_sizes(det, &q);
    return q.mismatch_due > now ? q.mismatch_due : now + 1;
}

/* st_check at st_held_due: the collective mismatch held is reported. */
static inline size_t st_check_held(dl_stream *s)
{
    s->now = st_held_due(s->det, s->now) - 1;
    return st_check(s);
}

/* The findings of one kind: how many, and the last one. */
static inline const dl_finding *st_find(dl_stream *s, int kind, size_t *count)
{
    size_t n;
    const dl_finding *all = deadlock_detector_findings(s->det, &n), *last = NULL;
    *count = 0;
    for (size_t i = 0; i < n; i++) {
        if (all[i].kind == kind) {
            last = &all[i];
            (*count)++;
        }
    }
    return last;
}

/* 1 when the finding's knot ranks are exactly ranks[0..n) (ascending). */
static inline int st_knot_is(const dl_finding *f, const int32_t *ranks, size_t n)
{
    if (!f || f->n_knot != n) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (f->calls[i].rank != ranks[i] || !f->calls[i].in_knot) {
            return 0;
        }
    }
    return 1;
}

/* 1 when the finding's waiting (non-knot) ranks are exactly ranks[0..n). */
static inline int st_waiting_is(const dl_finding *f, const int32_t *ranks, size_t n)
{
    if (!f || f->n_calls - f->n_knot != n) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (f->calls[f->n_knot + i].rank != ranks[i]) {
            return 0;
        }
    }
    return 1;
}

#endif
