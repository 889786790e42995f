/* The check agent (check_agent.h). */
#include "check_agent.h"

#include "event_ring.h"
#include "mg_error.h"
#include "mg_shm.h"
#include "mpi_function_ids.h"
#include "rank_scan.h"
#include "record_decoder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct agent_ring {
    event_ring_reader reader;
    int attached, ended;
    unsigned polls; /* drains so far, for the occasional look at the writer's /proc state */
} agent_ring;

/* A writer is read for a zombie once every this many drains (about half a second at the 20 ms of
 * a watch): a /proc read per rank per drain would cost a busy node a few percent of a core. */
enum { ZOMBIE_LOOK_POLLS = 25 };

struct check_agent {
    char token[64];
    int share, shares;
    int world_size;
    agent_ring *rings; /* by world rank, once world_size is known */
    site_resolver *sites;
    uint8_t *buf; /* one encoded record */
    size_t buf_cap;
    record_decoder decoder;
    check_agent_stats stats;
};

int check_agent_create(const char *token, int share, int shares, check_agent **out)
{
    if (!token || !*token || strlen(token) >= 64 || shares < 1 || share < 0 || share >= shares)
        return MG_ERROR_EINVAL;
    check_agent *a = calloc(1, sizeof *a);
    if (!a)
        return MG_ERROR_ENOMEM;
    snprintf(a->token, sizeof a->token, "%s", token);
    a->share = share;
    a->shares = shares;
    a->buf_cap = 1u << 20;
    a->buf = malloc(a->buf_cap);
    if (!a->buf || site_resolver_create(&a->sites) != MG_ERROR_OK) {
        check_agent_destroy(a);
        return MG_ERROR_ENOMEM;
    }
    *out = a;
    return MG_ERROR_OK;
}

void check_agent_destroy(check_agent *a)
{
    if (!a)
        return;
    for (int r = 0; a->rings && r < a->world_size; r++)
        if (a->rings[r].attached)
            event_ring_detach(&a->rings[r].reader);
    if (a->shares == 1)
        check_agent_remove_rings(a->token);
    site_resolver_destroy(a->sites);
    free(a->rings);
    free(a->buf);
    record_decoder_free(&a->decoder);
    free(a);
}

void check_agent_share_range(int world_size, int share, int shares, int *first, int *end)
{
    *first = (int)((int64_t)world_size * share / shares);
    *end = (int)((int64_t)world_size * (share + 1) / shares);
}

/* Whether rank is of our share; any rank while the world size is unknown (its ring tells it). */
static int owns(const check_agent *a, int rank)
{
    int first = 0, end = a->world_size ? 0 : rank + 1;
    if (a->world_size)
        check_agent_share_range(a->world_size, a->share, a->shares, &first, &end);
    return rank >= first && rank < end;
}

static int attach(check_agent *a, int rank)
{
    event_ring_reader rd;
    /* a look that does not claim the ring: until it is known to be ours, its writer must not take
     * us for its reader */
    if (event_ring_peek(&rd, a->token, rank) != MG_ERROR_OK)
        return MG_ERROR_OK; /* not there yet: looked at again next poll */
    if (a->world_size == 0) {
        int size = rd.hdr->size;
        if (size <= 0 || !(a->rings = calloc((size_t)size, sizeof *a->rings))) {
            event_ring_detach(&rd);
            return size <= 0 ? MG_ERROR_OK : MG_ERROR_ENOMEM;
        }
        a->world_size = rd.hdr->size;
        a->stats.world_size = a->world_size;
    }
    if (rank >= a->world_size || a->rings[rank].attached || !owns(a, rank)) {
        event_ring_detach(&rd);
        return MG_ERROR_OK;
    }
    /* Read the rank's module map before claiming its ring: a rank ending waits for its reader to
     * attach and no longer, and its call sites resolve from this map after it is gone. */
    site_resolver_prepare(a->sites, rd.hdr->writer_pid);
    event_ring_claim(&rd);
    a->rings[rank].reader = rd;
    a->rings[rank].attached = 1;
    a->stats.attached++;
    return MG_ERROR_OK;
}

/* A ring's name is its prefix and the rank: attach the rings of our share not attached yet. */
static int attach_named(const char *suffix, void *ctx)
{
    check_agent *a = ctx;
    char *end;
    long rank = strtol(suffix, &end, 10);
    if (*end == '\0' && owns(a, (int)rank) &&
        !(a->world_size && (rank >= a->world_size || a->rings[rank].attached)))
        return attach(a, (int)rank);
    return MG_ERROR_OK;
}

static void ring_prefix(char *out, size_t cap, const char *token)
{
    snprintf(out, cap, EVENT_RING_NAME_PREFIX "%s-", token);
}

int check_agent_remove_rings(const char *token)
{
    char prefix[128];
    ring_prefix(prefix, sizeof prefix, token);
    return mg_shm_remove_prefixed(prefix);
}

/* Looks for rings not attached yet; /dev/shm is scanned only while some are missing. */
static int attach_new(check_agent *a)
{
    int first, end;
    check_agent_share_range(a->world_size, a->share, a->shares, &first, &end);
    if (a->world_size) {
        int missing = 0;
        for (int r = first; r < end && !missing; r++)
            missing = !a->rings[r].attached;
        if (!missing)
            return MG_ERROR_OK;
    }
    char prefix[128];
    ring_prefix(prefix, sizeof prefix, a->token);
    return mg_shm_each_prefixed(prefix, attach_named, a);
}

static void end_stream(check_agent *a, int rank, int end, const check_agent_sink *sink)
{
    agent_ring *ring = &a->rings[rank];
    ring->ended = 1;
    a->stats.ended++;
    uint64_t lost = atomic_load(&ring->reader.hdr->lost);
    a->stats.lost += lost;
    a->stats.full_waits += atomic_load(&ring->reader.hdr->full_waits);
    if (sink->rank_end)
        sink->rank_end(sink->ctx, rank, end, lost);
}

/* The MPI function a record's call site calls: for a record about the handles another call made,
 * or about a call after MPI_Finalize, that call's (its mpi_function_ids_fn id in result); else the
 * record's own. NULL when unknown. */
static const char *called_name(const check_event *ev)
{
    if (ev->func == CHECK_EVENT_FN_HANDLE_LEAK || ev->func == CHECK_EVENT_FN_HANDLE_MADE ||
        ev->func == CHECK_EVENT_FN_AFTER_FINALIZE || ev->func == CHECK_EVENT_FN_UNMODELLED)
        return ev->result > MG_FN_NONE && ev->result < MG_FN_COUNT
                   ? mpi_function_ids_name((unsigned)ev->result)
                   : NULL;
    const check_event_func_info *info = check_event_func_describe(ev->func);
    return info ? info->name : NULL;
}

/* Resolves a site of rank's, a call of `called` (NULL: unknown), handing it over the first
 * time. */
static site_resolver_info resolve_site(check_agent *a, int rank, int pid, uint64_t addr,
                                       const char *called, const check_agent_sink *sink)
{
    site_resolver_info site;
    if (site_resolver_lookup(a->sites, rank, pid, addr, called, &site) == 1 && sink->site)
        sink->site(sink->ctx, rank, addr, &site);
    return site;
}

/* The site a record flagged CHECK_EVENT_FLAG_CALLER_SITE is reported at: its call site, or its
 * caller's when the call site lies in the MPI's C++ bindings (a binding not inlined, -O0) and the
 * caller's is a line outside them. Every reader past this agent sees one site, as with any other
 * record. */
static uint64_t program_site(check_agent *a, int rank, int pid, const check_event *ev,
                             const check_agent_sink *sink)
{
    site_resolver_info site;
    if (!site_resolver_cached(a->sites, rank, ev->callsite, &site) || !site.in_mpi_binding)
        return ev->callsite;
    site = resolve_site(a, rank, pid, ev->caller_site, NULL, sink);
    return site.file && !site.in_mpi_binding ? ev->caller_site : ev->callsite;
}

/* Validates and hands over one record: 1 when delivered, 0 when invalid, or MG_ERROR_ENOMEM. */
static int deliver(check_agent *a, int rank, uint32_t len, const check_agent_sink *sink)
{
    check_event ev;
    int rc = record_decoder_decode(&a->decoder, a->buf, len, &ev);
    if (rc == MG_ERROR_ENOMEM)
        return rc;
    if (rc != MG_ERROR_OK || ev.rank != rank) {
        a->stats.invalid++;
        return 0;
    }
    int pid = a->rings[rank].reader.hdr->writer_pid;
    resolve_site(a, rank, pid, ev.callsite, called_name(&ev), sink);
    if (ev.flags & CHECK_EVENT_FLAG_CALLER_SITE) {
        a->stats.caller_sites++;
        ev.callsite = program_site(a, rank, pid, &ev, sink);
        ev.flags &= (uint16_t)~CHECK_EVENT_FLAG_CALLER_SITE;
        size_t shorter;
        if (check_event_encode(&ev, a->buf, a->buf_cap, &shorter) != MG_ERROR_OK) {
            a->stats.invalid++;
            return 0;
        }
        len = (uint32_t)shorter;
    }
    sink->record(sink->ctx, &ev, a->buf, len);
    return 1;
}

static int drain(check_agent *a, int rank, const check_agent_sink *sink, size_t budget,
                 size_t *records)
{
    agent_ring *ring = &a->rings[rank];
    /* Read liveness before draining: a writer seen dead here wrote everything it ever will. A
     * zombie is dead too: where no init reaps orphans (a container, a node's PID namespace) a
     * killed rank stays one. */
    int dead = event_ring_writer_dead(&ring->reader) ||
               (++ring->polls % ZOMBIE_LOOK_POLLS == 0 &&
                mg_process_state_gone(rank_scan_process_state(ring->reader.hdr->writer_pid)));
    uint32_t life = atomic_load(&ring->reader.hdr->life);
    for (size_t n = 0; !budget || n < budget; n++) {
        uint32_t len;
        int rc = event_ring_read(&ring->reader, a->buf, a->buf_cap, &len);
        if (rc == 0)
            break;
        if (rc == MG_ERROR_EFORMAT) {
            end_stream(a, rank, CHECK_AGENT_CORRUPT, sink);
            return MG_ERROR_OK;
        }
        if (rc == MG_ERROR_ERANGE) { /* larger than any record the capture side writes: skipped */
            a->stats.invalid++;
            continue;
        }
        if ((rc = deliver(a, rank, len, sink)) < 0)
            return rc;
        *records += (size_t)rc;
    }
    uint64_t left = atomic_load(&ring->reader.hdr->head) - atomic_load(&ring->reader.hdr->tail);
    if (left == 0 && life != EVENT_RING_RUNNING)
        end_stream(a, rank,
                   life == EVENT_RING_ABORTED ? CHECK_AGENT_ABORTED : CHECK_AGENT_FINALIZED, sink);
    else if (left == 0 && dead)
        end_stream(a, rank, CHECK_AGENT_LOST, sink);
    return MG_ERROR_OK;
}

int check_agent_poll(check_agent *a, const check_agent_sink *sink, size_t max_records,
                     size_t *records)
{
    *records = 0;
    int rc = attach_new(a);
    int first, end;
    check_agent_share_range(a->world_size, a->share, a->shares, &first, &end);
    for (int r = first; rc == MG_ERROR_OK && r < end; r++) {
        if (!a->rings[r].attached || a->rings[r].ended)
            continue;
        size_t budget = max_records ? (max_records > *records ? max_records - *records : 1) : 0;
        rc = drain(a, r, sink, budget, records);
    }
    return rc;
}

void check_agent_stats_get(const check_agent *a, check_agent_stats *out)
{
    *out = a->stats;
    for (int r = 0; r < a->world_size; r++) /* streams still running count their losses so far */
        if (a->rings[r].attached && !a->rings[r].ended) {
            out->lost += atomic_load(&a->rings[r].reader.hdr->lost);
            out->full_waits += atomic_load(&a->rings[r].reader.hdr->full_waits);
        }
}

uint64_t check_agent_blocked_seq(const check_agent *a, int rank)
{
    if (rank < 0 || rank >= a->world_size || !a->rings[rank].attached)
        return 0;
    const event_ring_header *h = a->rings[rank].reader.hdr;
    if (atomic_load(&h->head) != atomic_load(&h->tail))
        return 0;
    return atomic_load(&h->in_call_seq);
}

int check_agent_pid(const check_agent *a, int rank)
{
    if (rank < 0 || rank >= a->world_size || !a->rings[rank].attached)
        return 0;
    return a->rings[rank].reader.hdr->writer_pid;
}

int check_agent_ended(const check_agent *a, int rank)
{
    return rank >= 0 && rank < a->world_size && a->rings[rank].ended;
}
