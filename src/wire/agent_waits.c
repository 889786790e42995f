/* A rank's published wait over the agent protocol (agent_waits.h). */
#include "agent_waits.h"

#include "mg_error.h"

#include <string.h>

static uint32_t load32(const _Atomic uint32_t *v)
{
    return atomic_load_explicit(v, memory_order_relaxed);
}

static uint32_t load_i32(const _Atomic int32_t *v)
{
    return (uint32_t)atomic_load_explicit(v, memory_order_relaxed);
}

static uint64_t load64(const _Atomic uint64_t *v)
{
    return atomic_load_explicit(v, memory_order_relaxed);
}

int agent_waits_put(agent_proto_buf *b, const rank_state *state)
{
    if (!state)
        return agent_proto_put_u32(b, 0) ? MG_ERROR_ENOMEM : MG_ERROR_OK;
    /* acquire, as a local reader does: the ids below were stored before the count */
    uint32_t nworld = atomic_load_explicit(&state->world_like_count, memory_order_acquire);
    nworld = nworld < RANK_STATE_WORLD_LIKE ? nworld : RANK_STATE_WORLD_LIKE;
    int rc = agent_proto_put_u32(b, 1) || agent_proto_put_u32(b, (uint32_t)state->size) ||
             agent_proto_put_u32(b, load32(&state->wait_on)) ||
             agent_proto_put_u32(b, load_i32(&state->wait_peer)) ||
             agent_proto_put_u32(b, load_i32(&state->wait_tag)) ||
             agent_proto_put_u64(b, load64(&state->wait_comm)) ||
             agent_proto_put_u64(b, load64(&state->world_collectives)) ||
             agent_proto_put_u32(b, load32(&state->posted));
    for (uint32_t i = 0; !rc && i < RANK_STATE_POSTED; i++)
        rc = agent_proto_put_u32(b, load_i32(&state->posted_peer[i])) ||
             agent_proto_put_u32(b, load_i32(&state->posted_tag[i])) ||
             agent_proto_put_u64(b, load64(&state->posted_comm[i]));
    rc = rc || agent_proto_put_u32(b, nworld);
    for (uint32_t i = 0; !rc && i < nworld; i++)
        rc = agent_proto_put_u64(b, load64(&state->world_like[i]));
    return rc ? MG_ERROR_ENOMEM : MG_ERROR_OK;
}

/* A u32 that travels as an int32. */
static int get_i32(agent_proto_cursor *c, int32_t *v)
{
    uint32_t u;
    int rc = agent_proto_get_u32(c, &u);
    *v = (int32_t)u;
    return rc;
}

int agent_waits_get(agent_proto_cursor *c, rank_state *copy, bool *published)
{
    uint32_t flag, size, on, posted, nworld;
    int32_t peer, tag;
    uint64_t comm, collectives;
    if (agent_proto_get_u32(c, &flag) || flag > 1)
        return MG_ERROR_EFORMAT;
    *published = flag == 1;
    if (!*published)
        return MG_ERROR_OK;
    if (agent_proto_get_u32(c, &size) || size == 0 || size > AGENT_PROTO_MAX_WORLD ||
        agent_proto_get_u32(c, &on) || on > RANK_STATE_WAIT_REQUESTS || get_i32(c, &peer) ||
        get_i32(c, &tag) || agent_proto_get_u64(c, &comm) || agent_proto_get_u64(c, &collectives) ||
        agent_proto_get_u32(c, &posted))
        return MG_ERROR_EFORMAT;
    memset(copy, 0, sizeof *copy);
    copy->magic = RANK_STATE_MAGIC;
    copy->version = RANK_STATE_VERSION;
    copy->size = (int32_t)size;
    atomic_init(&copy->wait_on, on);
    atomic_init(&copy->wait_peer, peer);
    atomic_init(&copy->wait_tag, tag);
    atomic_init(&copy->wait_comm, comm);
    atomic_init(&copy->world_collectives, collectives);
    atomic_init(&copy->posted, posted);
    for (uint32_t i = 0; i < RANK_STATE_POSTED; i++) {
        if (get_i32(c, &peer) || get_i32(c, &tag) || agent_proto_get_u64(c, &comm))
            return MG_ERROR_EFORMAT;
        atomic_init(&copy->posted_peer[i], peer);
        atomic_init(&copy->posted_tag[i], tag);
        atomic_init(&copy->posted_comm[i], comm);
    }
    if (agent_proto_get_u32(c, &nworld) || nworld > RANK_STATE_WORLD_LIKE)
        return MG_ERROR_EFORMAT;
    for (uint32_t i = 0; i < nworld; i++) {
        if (agent_proto_get_u64(c, &comm))
            return MG_ERROR_EFORMAT;
        atomic_init(&copy->world_like[i], comm);
    }
    atomic_init(&copy->world_like_count, nworld);
    return MG_ERROR_OK;
}
