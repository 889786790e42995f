/* What the culprit search takes of one rank (hang_facts.h). */
#include "hang_facts.h"

#include <string.h>

/* Whether a frame inside the MPI call (innermost first, before the first MPI entry frame) is a
 * signal trampoline or the application's own code: the rank computes there (a handler, a callback
 * that never returns), it does not wait. A stack with no MPI entry frame (not unwound, or unwound
 * wrong) says nothing, but for a signal frame: the unwinder often stops at the trampoline, and a
 * rank its counter places in MPI that runs a handler computes there (batch run 45059: a
 * spin-out's rank 7 was missed, and the seven ranks waiting on it were named). */
static bool computes_inside_mpi(const rank_stack *st, const char *app)
{
    bool computing = false;
    bool in_signal = false;
    for (size_t i = 0; i < st->nframes; i++) {
        const rank_stack_frame *f = &st->frames[i];
        const char *name = f->function + (f->function[0] == 'P');
        if (strncmp(name, "MPI_", 4) == 0)
            return computing;
        in_signal = in_signal || strcmp(f->function, RANK_STACK_SIGNAL_FRAME) == 0;
        computing = computing || in_signal || strcmp(f->module, app) == 0;
    }
    return in_signal;
}

int hang_facts_world_index(const rank_state *state, uint64_t comm)
{
    uint32_t n = atomic_load_explicit(&state->world_like_count, memory_order_acquire);
    for (uint32_t i = 0; i < n && i < RANK_STATE_WORLD_LIKE; i++)
        if (atomic_load_explicit(&state->world_like[i], memory_order_relaxed) == comm)
            return (int)i;
    return -1;
}

bool hang_facts_world_like(const rank_state *state, uint64_t comm)
{
    return hang_facts_world_index(state, comm) >= 0;
}

struct hang_watch_wait hang_facts_watch_wait(const rank_state *state,
                                             enum hang_watch_wait_kind kind)
{
    int comm = hang_facts_world_index(
        state, atomic_load_explicit(&state->wait_comm, memory_order_relaxed));
    if (comm < 0)
        return (struct hang_watch_wait){.kind = HANG_WATCH_WAIT_UNKNOWN};
    return (struct hang_watch_wait){
        .kind = kind,
        .peer = atomic_load_explicit(&state->wait_peer, memory_order_relaxed),
        .tag = atomic_load_explicit(&state->wait_tag, memory_order_relaxed),
        .comm = (uint64_t)comm};
}

struct hang_watch_wait hang_facts_watch_requests(const rank_state *state)
{
    uint32_t posted = atomic_load_explicit(&state->posted, memory_order_relaxed);
    uint32_t slots = posted < RANK_STATE_POSTED ? posted : RANK_STATE_POSTED;
    struct hang_watch_wait out = {.kind = slots ? HANG_WATCH_WAIT_REQUESTS
                                                : HANG_WATCH_WAIT_UNKNOWN};
    for (uint32_t i = 0; i < slots; i++) {
        int peer = atomic_load_explicit(&state->posted_peer[i], memory_order_relaxed);
        int tag = atomic_load_explicit(&state->posted_tag[i], memory_order_relaxed);
        int comm = hang_facts_world_index(
            state, atomic_load_explicit(&state->posted_comm[i], memory_order_relaxed));
        if (comm < 0 || (i > 0 && (uint64_t)comm != out.comm))
            return (struct hang_watch_wait){.kind = HANG_WATCH_WAIT_UNKNOWN};
        out.peer = i == 0 || peer == out.peer ? peer : RANK_STATE_PEER_ANY;
        out.tag = i == 0 || tag == out.tag ? tag : RANK_STATE_TAG_ANY;
        out.comm = (uint64_t)comm;
    }
    return out;
}

static bool valid_peer(const rank_state *state, int peer)
{
    return peer >= 0 && peer < state->size;
}

/* The distinct world peers of the posted slots; ALL when one is MPI_ANY_SOURCE; UNKNOWN when one
 * is on a communicator whose ranks are not the world's. */
static void posted_peers(const rank_state *state, struct hang_culprit_rank *out)
{
    uint32_t posted = atomic_load_explicit(&state->posted, memory_order_relaxed);
    uint32_t slots = posted < RANK_STATE_POSTED ? posted : RANK_STATE_POSTED;
    out->wait = slots ? HANG_CULPRIT_WAIT_PEERS : HANG_CULPRIT_WAIT_UNKNOWN;
    for (uint32_t i = 0; i < slots && out->wait == HANG_CULPRIT_WAIT_PEERS; i++) {
        int peer = atomic_load_explicit(&state->posted_peer[i], memory_order_relaxed);
        uint64_t comm = atomic_load_explicit(&state->posted_comm[i], memory_order_relaxed);
        if (!hang_facts_world_like(state, comm) ||
            !(peer == RANK_STATE_PEER_ANY || valid_peer(state, peer)))
            out->wait = HANG_CULPRIT_WAIT_UNKNOWN;
        else if (peer == RANK_STATE_PEER_ANY)
            out->wait = HANG_CULPRIT_WAIT_ALL;
        bool known = false;
        for (size_t k = 0; k < out->npeers; k++)
            known = known || out->peers[k] == peer;
        if (out->wait == HANG_CULPRIT_WAIT_PEERS && !known && out->npeers < HANG_CULPRIT_MAX_PEERS)
            out->peers[out->npeers++] = peer;
    }
}

/* Rank r's wait as the search takes it, from what it published. */
static void published_wait(const rank_state *state, int r, struct hang_culprit_rank *out)
{
    uint32_t on = atomic_load_explicit(&state->wait_on, memory_order_relaxed);
    int peer = atomic_load_explicit(&state->wait_peer, memory_order_relaxed);
    int comm = hang_facts_world_index(
        state, atomic_load_explicit(&state->wait_comm, memory_order_relaxed));
    bool world = comm >= 0;
    out->collectives_known = true;
    out->collectives = atomic_load_explicit(&state->world_collectives, memory_order_relaxed);
    out->world_collective = comm == 0 && (on == RANK_STATE_WAIT_ALL || on == RANK_STATE_WAIT_ROOT);
    out->wait = HANG_CULPRIT_WAIT_UNKNOWN;
    if (on == RANK_STATE_WAIT_REQUESTS) {
        posted_peers(state, out);
    } else if (world && (on == RANK_STATE_WAIT_ALL ||
                         (on == RANK_STATE_WAIT_PEER && peer == RANK_STATE_PEER_ANY) ||
                         (on == RANK_STATE_WAIT_ROOT && peer == r))) {
        out->wait = HANG_CULPRIT_WAIT_ALL; /* a root waits on every other rank of its collective */
    } else if (world && (on == RANK_STATE_WAIT_PEER || on == RANK_STATE_WAIT_ROOT) &&
               valid_peer(state, peer)) {
        out->wait = HANG_CULPRIT_WAIT_PEERS;
        out->npeers = 1;
        out->peers[0] = peer;
    }
}

void hang_facts_rank(const struct hang_facts_seen *seen, const rank_stack *st, const char *app,
                     const rank_state *state, int r, struct hang_culprit_rank *out)
{
    *out = (struct hang_culprit_rank){.live = seen->live,
                                      .in_mpi = seen->in_mpi,
                                      .stopped = seen->stopped,
                                      .spun = seen->spun,
                                      .in_handler = seen->in_mpi && computes_inside_mpi(st, app)};
    if (!seen->live || !seen->in_mpi)
        return;
    /* MPI_Init waits for every rank of the world, published or not (a rank stopped before it) */
    const char *call = st->mpi_function + (st->mpi_function[0] == 'P');
    if (strcmp(call, "MPI_Init") == 0 || strcmp(call, "MPI_Init_thread") == 0)
        out->wait = HANG_CULPRIT_WAIT_ALL;
    if (state)
        published_wait(state, r, out);
}
