/* A relay of an agent tree (agent_relay.h). */
#include "agent_relay.h"

#include "mg_error.h"

#include <stdlib.h>

int agent_relay_init(agent_relay *r, size_t nranks)
{
    r->nranks = nranks;
    r->ranks = malloc(nranks * sizeof *r->ranks);
    r->grouped = malloc(nranks * sizeof *r->grouped);
    r->out = malloc(nranks * sizeof *r->out);
    r->table = malloc(nranks * sizeof *r->table);
    return r->ranks && r->grouped && r->out && r->table ? MG_ERROR_OK : MG_ERROR_ENOMEM;
}

void agent_relay_free(agent_relay *r)
{
    free(r->ranks);
    free(r->grouped);
    free(r->out);
    free(r->table);
    agent_proto_buf_free(&r->buf);
}

static void read_relayed(void *ctx, int32_t rank, int kind, agent_proto_reading *out)
{
    const agent_relay *r = ctx;
    (void)kind;
    *out = rank >= 0 && (size_t)rank < r->nranks ? r->table[rank] : agent_reads_unseen(rank);
}

int agent_relay_answer(agent_relay *r, agent_proto_msg_type type, agent_proto_cursor *request,
                       agent_proto_buf *reply, char *err, size_t errlen)
{
    size_t count;
    int kind;
    int rc = agent_reads_ranks(type, request, &kind, r->ranks, r->nranks, &count, err, errlen);
    if (rc != MG_ERROR_OK)
        return rc;
    /* what no agent below answers for (not its rank, or its agent failed) reads as unseen */
    for (size_t i = 0; i < count; i++)
        if (r->ranks[i] >= 0 && (size_t)r->ranks[i] < r->nranks)
            r->table[r->ranks[i]] = agent_reads_unseen(r->ranks[i]);
    agent_reads_group(r->below, r->nbelow, r->child_of, r->nranks, r->ranks, count, r->grouped,
                      r->out);
    /* the agents below read as the front asked: a gap-only round stops no rank there either */
    rc = agent_reads_round(r->below, r->nbelow, kind, &r->buf, &r->stats, err, errlen);
    if (rc != MG_ERROR_OK)
        return rc;
    for (size_t j = 0; j < r->nbelow; j++)
        for (size_t i = 0; i < r->below[j].count; i++)
            r->table[r->below[j].ranks[i]] = r->below[j].out[i];
    for (size_t i = 0; i < count; i++) {
        int rank = r->ranks[i];
        if (rank < 0 || (size_t)rank >= r->nranks || r->child_of[rank] < 0)
            continue;
        const agent_reads_ask *a = &r->below[r->child_of[rank]];
        r->table[rank].lost = a->fd < 0 || a->rc != MG_ERROR_OK;
    }
    return agent_reads_answer(type, request, read_relayed, r, reply, err, errlen);
}
