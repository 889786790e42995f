/* Message races (message_race.h). */
#include "message_race.h"

#include <stdlib.h>
#include <string.h>

#include "detector_state.h"
#include "key_map.h"
#include "mg_error.h"

/* Decided wildcard receives a rank keeps for later sends to race with; past it the oldest one
 * that may still race gives way (a race with it may then be missed). */
#define WINDOWS_PER_RANK 16
/* Candidate sends one finding lists besides the receive and the send it took. */
#define MAX_CANDIDATES 32

/* A wildcard receive MPI decided, which a send posted concurrently may still race with. */
typedef struct race_window {
    p2p_match_post recv;  /* as posted (for a probe: the probe's call, seq and tag) */
    p2p_match_post taken; /* the send MPI matched it with */
} race_window;

/* The probe from MPI_ANY_SOURCE whose message the rank's next receive from `source` takes. */
typedef struct pending_probe {
    p2p_match_post probe;
    int32_t source;      /* -1: none */
    int32_t entered_tag; /* the tag of the probe entered last, when it was from MPI_ANY_SOURCE */
    uint8_t entered_wildcard;
} pending_probe;

struct message_race {
    int32_t world;
    uint64_t *seen; /* seen[a * world + b]: the latest sequence number of rank b that a heard of */
    race_window *windows; /* WINDOWS_PER_RANK per rank */
    uint32_t *n_windows;
    pending_probe *probes; /* per rank; source -1: none */
    key_map reported;      /* races already reported: (receive site, rank) */
};

message_race *message_race_create(int32_t world)
{
    if (world <= 0 || world > MESSAGE_RACE_MAX_WORLD)
        return NULL;
    message_race *mr = calloc(1, sizeof *mr);
    if (!mr)
        return NULL;
    size_t n = (size_t)world;
    mr->world = world;
    mr->seen = calloc(n * n, sizeof *mr->seen);
    mr->windows = calloc(n * WINDOWS_PER_RANK, sizeof *mr->windows);
    mr->n_windows = calloc(n, sizeof *mr->n_windows);
    mr->probes = calloc(n, sizeof *mr->probes);
    key_map_init(&mr->reported);
    if (!mr->seen || !mr->windows || !mr->n_windows || !mr->probes) {
        message_race_destroy(mr);
        return NULL;
    }
    for (size_t r = 0; r < n; r++)
        mr->probes[r].source = -1;
    return mr;
}

void message_race_destroy(message_race *mr)
{
    if (!mr)
        return;
    free(mr->seen);
    free(mr->windows);
    free(mr->n_windows);
    free(mr->probes);
    key_map_free(&mr->reported);
    free(mr);
}

static uint64_t *seen_by(message_race *mr, int32_t rank)
{
    return &mr->seen[(size_t)rank * (size_t)mr->world];
}

uint64_t message_race_heard(const message_race *mr, int32_t rank, int32_t of)
{
    return mr->seen[(size_t)rank * (size_t)mr->world + (size_t)of];
}

static void join(message_race *mr, int32_t into, const uint64_t *known)
{
    uint64_t *mine = seen_by(mr, into);
    for (int32_t b = 0; b < mr->world; b++)
        if (known[b] > mine[b])
            mine[b] = known[b];
}

/* The send could have matched the decided receive w instead of the one MPI gave it. */
static int races_with(const race_window *w, const p2p_match_post *send)
{
    return send->rank != w->taken.rank && send->comm == w->recv.comm &&
           send->peer == w->recv.rank &&
           (w->recv.tag == CHECK_EVENT_ANY_TAG || w->recv.tag == send->tag) &&
           send->dest_seen < w->recv.seq;
}

/* The receive of w, the send it took and the candidates (distinct ranks): one finding per
 * receiving rank and receive call site, with the candidates known when it is first found (a
 * master receiving results in a loop races at every receive). */
static int report(deadlock_detector *det, const race_window *w, const p2p_match_post *const *cands,
                  size_t n)
{
    uint32_t unused;
    if (key_map_get(&det->races->reported, w->recv.callsite, (uint64_t)w->recv.rank, &unused))
        return MG_ERROR_OK;
    int rc = key_map_put(&det->races->reported, w->recv.callsite, (uint64_t)w->recv.rank, 1);
    uint64_t comm = comm_table_id(&det->comms, w->recv.comm);
    dl_finding f = {.kind = DL_FINDING_MESSAGE_RACE,
                    .time = det->last_time,
                    .probe_rank = -1,
                    .probe_source = -1};
    dl_finding_call recv = detector_state_post_call(&w->recv, comm),
                    taken = detector_state_post_call(&w->taken, comm);
    rc = rc ? rc : dl_finding_add_call(&f, &recv);
    rc = rc ? rc : dl_finding_add_call(&f, &taken);
    for (size_t i = 0; i < n && !rc; i++) {
        dl_finding_call c = detector_state_post_call(cands[i], comm);
        rc = dl_finding_add_call(&f, &c);
    }
    if (rc) {
        dl_finding_free(&f);
        return rc;
    }
    return detector_state_push_finding(det, &f);
}

typedef struct candidates {
    const race_window *w;
    const p2p_match_post *list[MAX_CANDIDATES];
    size_t n;
} candidates;

static void gather(void *ctx, const p2p_match_post *send)
{
    candidates *c = ctx;
    if (c->n == MAX_CANDIDATES || !races_with(c->w, send))
        return;
    for (size_t i = 0; i < c->n; i++)
        if (c->list[i]->rank == send->rank)
            return; /* only a rank's oldest queued send could have matched */
    c->list[c->n++] = send;
}

/* A window closed: every other rank has heard of its receiving rank since the receive, so no
 * send to come can race with it. */
static int closed(message_race *mr, const race_window *w)
{
    for (int32_t q = 0; q < mr->world; q++)
        if (q != w->recv.rank && seen_by(mr, q)[w->recv.rank] < w->recv.seq)
            return 0;
    return 1;
}

static void keep_window(message_race *mr, const race_window *w)
{
    race_window *ws = &mr->windows[(size_t)w->recv.rank * WINDOWS_PER_RANK];
    uint32_t *n = &mr->n_windows[w->recv.rank];
    if (*n == WINDOWS_PER_RANK) {
        uint32_t keep = 0;
        for (uint32_t i = 0; i < *n; i++)
            if (!closed(mr, &ws[i]))
                ws[keep++] = ws[i];
        *n = keep;
        if (*n == WINDOWS_PER_RANK) /* the oldest gives way */
            memmove(ws, ws + 1, --*n * sizeof *ws);
    }
    ws[(*n)++] = *w;
}

/* The wildcard receive (or probe) w was decided: the sends queued for it besides the one it took
 * were available too. Later sends are checked as they are matched (pairing). */
static int decided(deadlock_detector *det, const race_window *w)
{
    candidates c = {.w = w};
    p2p_match_each_queued_send(&det->p2p, w->recv.comm, w->recv.rank, w->recv.tag, gather, &c);
    keep_window(det->races, w);
    return c.n ? report(det, w, c.list, c.n) : MG_ERROR_OK;
}

static int pairing(deadlock_detector *det, const p2p_match_pairing *pr)
{
    message_race *mr = det->races;
    int32_t r = pr->recv.rank, q = pr->send.rank;
    const race_window *ws = &mr->windows[(size_t)r * WINDOWS_PER_RANK];
    int rc = MG_ERROR_OK;
    for (uint32_t i = 0; i < mr->n_windows[r] && !rc; i++) {
        const p2p_match_post *one = &pr->send;
        if (ws[i].recv.seq < pr->recv.seq && races_with(&ws[i], one))
            rc = report(det, &ws[i], &one, 1);
    }
    join(mr, r, seen_by(mr, q));
    if (pr->send.seq > seen_by(mr, r)[q])
        seen_by(mr, r)[q] = pr->send.seq;
    pending_probe *pp = &mr->probes[r];
    if (pp->source == q && pp->probe.comm == pr->recv.comm && pp->probe.seq <= pr->recv.seq) {
        pp->source = -1;
        race_window w = {pp->probe, pr->send};
        int rc2 = decided(det, &w);
        rc = rc ? rc : rc2;
    } else if (pr->wildcard) {
        race_window w = {pr->recv, pr->send};
        int rc2 = decided(det, &w);
        rc = rc ? rc : rc2;
    }
    return rc;
}

int message_race_sync(deadlock_detector *det)
{
    if (!det->races)
        return MG_ERROR_OK;
    const p2p_match_pairing *prs;
    size_t n;
    p2p_match_drain_pairings(&det->p2p, &prs, &n);
    int first = MG_ERROR_OK;
    for (size_t i = 0; i < n; i++) {
        int rc = pairing(det, &prs[i]);
        first = first ? first : rc;
    }
    return first;
}

int message_race_send_posted(deadlock_detector *det, int32_t rank, uint64_t seq, int32_t dest,
                             uint64_t *dest_seen)
{
    *dest_seen = 0;
    if (!det->races)
        return MG_ERROR_OK;
    int rc = message_race_sync(det);
    uint64_t *mine = seen_by(det->races, rank);
    mine[rank] = seq;
    *dest_seen = mine[dest];
    return rc;
}

int message_race_collective(deadlock_detector *det, int32_t rank, uint64_t seq, uint32_t comm,
                            int complete)
{
    message_race *mr = det->races;
    if (!mr)
        return MG_ERROR_OK;
    int rc = message_race_sync(det);
    if (seq > seen_by(mr, rank)[rank])
        seen_by(mr, rank)[rank] = seq;
    if (!complete)
        return rc;
    uint64_t *all = calloc((size_t)mr->world, sizeof *all);
    if (!all)
        return MG_ERROR_ENOMEM;
    uint32_t n = comm_table_size(&det->comms, comm);
    for (uint32_t i = 0; i < n; i++) {
        int32_t m = comm_table_member(&det->comms, comm, i);
        const uint64_t *known = seen_by(mr, m);
        for (int32_t b = 0; b < mr->world; b++)
            if (known[b] > all[b])
                all[b] = known[b];
    }
    for (uint32_t i = 0; i < n; i++)
        join(mr, comm_table_member(&det->comms, comm, i), all);
    free(all);
    return rc;
}

void message_race_probe_entered(deadlock_detector *det, const check_event *ev)
{
    if (!det->races)
        return;
    pending_probe *pp = &det->races->probes[ev->rank];
    pp->entered_wildcard = ev->peer == CHECK_EVENT_ANY_SOURCE;
    pp->entered_tag = ev->tag;
}

int message_race_probed(deadlock_detector *det, const check_event *ev, uint32_t comm)
{
    message_race *mr = det->races;
    if (!mr || !mr->probes[ev->rank].entered_wildcard || ev->n_statuses == 0 ||
        ev->statuses[0].source < 0 || (ev->func != CHECK_EVENT_FN_PROBE && !ev->result))
        return MG_ERROR_OK;
    int rc = message_race_sync(det);
    pending_probe *pp = &mr->probes[ev->rank];
    pp->probe = (p2p_match_post){.rank = ev->rank,
                                 .peer = CHECK_EVENT_ANY_SOURCE,
                                 .tag = pp->entered_tag,
                                 .comm = comm,
                                 .func = ev->func,
                                 .seq = ev->seq,
                                 .callsite = ev->callsite};
    pp->source = ev->statuses[0].source;
    return rc;
}
