/* A relay of hang's agent tree (hang_relay.h). */
#include "hang_relay.h"

#include "agent_relay.h"
#include "agent_waits.h"
#include "mg_error.h"

#include <stdlib.h>
#include <unistd.h>

/* Sends a frame of type with the one u32 value to every agent below that is still there. */
static void tell_all(agent_relay *r, agent_proto_msg_type type, uint32_t value, agent_proto_buf *b)
{
    if (agent_proto_frame_begin(b, type) ||
        (type != AGENT_PROTO_MSG_BYE && agent_proto_put_u32(b, value)))
        return;
    agent_proto_frame_finish(b);
    for (size_t j = 0; j < r->nbelow; j++)
        if (r->below[j].fd >= 0)
            agent_proto_send(r->below[j].fd, b);
}

static void drop(agent_reads_ask *a)
{
    close(a->fd);
    a->fd = -1;
}

/* Asks agent a for rank's stack (the request built in scratch), its answer's payload into *c
 * (borrowed from answer). MG_ERROR_EIO when it cannot answer. */
static int ask_stack(agent_reads_ask *a, int32_t rank, agent_proto_buf *scratch,
                     agent_proto_buf *answer, agent_proto_cursor *c)
{
    agent_proto_msg_type type;
    char err[160];
    if (agent_proto_frame_begin(scratch, AGENT_PROTO_MSG_STACKS) ||
        agent_proto_put_u32(scratch, 1) || agent_proto_put_u32(scratch, (uint32_t)rank))
        return MG_ERROR_ENOMEM;
    agent_proto_frame_finish(scratch);
    int rc = agent_proto_send(a->fd, scratch);
    if (rc == MG_ERROR_OK)
        rc = agent_proto_recv(a->fd, answer, &type, c, err, sizeof err);
    return rc == MG_ERROR_OK && type != AGENT_PROTO_MSG_STACK ? MG_ERROR_EIO : rc;
}

/* Rank's stack from its agent into the finished frame reply: the agent's answer as it came, or an
 * empty stack with nothing published when it cannot answer (it is then not asked again). */
static int relay_stack(agent_relay *r, int32_t rank, agent_proto_buf *reply)
{
    agent_reads_ask *a = rank >= 0 && (size_t)rank < r->nranks && r->child_of[rank] >= 0
                             ? &r->below[r->child_of[rank]]
                             : NULL;
    agent_proto_cursor c;
    int rc = a && a->fd >= 0 ? ask_stack(a, rank, reply, &r->buf, &c) : MG_ERROR_EIO;
    if (rc == MG_ERROR_ENOMEM)
        return rc;
    if (rc != MG_ERROR_OK && a && a->fd >= 0)
        drop(a);
    if (agent_proto_frame_begin(reply, AGENT_PROTO_MSG_STACK))
        return MG_ERROR_ENOMEM;
    rc = rc == MG_ERROR_OK ? agent_proto_put_bytes(reply, c.p, (size_t)(c.end - c.p))
                           : agent_proto_put_str(reply, "") || agent_proto_put_u32(reply, 0) ||
                                 agent_waits_put(reply, NULL);
    if (rc)
        return MG_ERROR_ENOMEM;
    agent_proto_frame_finish(reply);
    return MG_ERROR_OK;
}

/* Answers one request of the front: 1 on bye or when the front is gone, else 0 or an error. */
static int serve(agent_relay *r, int up, agent_proto_buf *in, agent_proto_buf *out, char *err,
                 size_t errlen)
{
    agent_proto_msg_type type;
    agent_proto_cursor c;
    uint32_t count, value;
    int rc = agent_proto_recv(up, in, &type, &c, err, errlen);
    if (rc == MG_ERROR_EIO || (rc == MG_ERROR_OK && type == AGENT_PROTO_MSG_BYE))
        return 1;
    if (rc != MG_ERROR_OK)
        return rc;
    if (type == AGENT_PROTO_MSG_SIGNAL) {
        if (agent_proto_get_u32(&c, &value))
            return MG_ERROR_EFORMAT;
        tell_all(r, AGENT_PROTO_MSG_SIGNAL, value, out);
        return MG_ERROR_OK;
    }
    if (type == AGENT_PROTO_MSG_STACKS) {
        if (agent_proto_get_u32(&c, &count) || count != 1 || agent_proto_get_u32(&c, &value))
            return MG_ERROR_EFORMAT;
        rc = relay_stack(r, (int32_t)value, out);
    } else {
        rc = agent_relay_answer(r, type, &c, out, err, errlen);
        for (size_t j = 0; j < r->nbelow; j++)
            if (r->below[j].count > 0 && r->below[j].rc != MG_ERROR_OK)
                drop(&r->below[j]);
    }
    return rc != MG_ERROR_OK ? rc : agent_proto_send(up, out) == MG_ERROR_OK ? MG_ERROR_OK : 1;
}

int hang_relay_run(int up, int *below, size_t nbelow, const int *child_of, size_t nranks, char *err,
                   size_t errlen)
{
    agent_relay r = {.nbelow = nbelow, .child_of = child_of};
    agent_proto_buf in = {0}, out = {0};
    r.below = calloc(nbelow ? nbelow : 1, sizeof *r.below);
    int rc = r.below ? agent_relay_init(&r, nranks) : MG_ERROR_ENOMEM;
    for (size_t j = 0; r.below && j < nbelow; j++)
        r.below[j].fd = below[j];
    while (rc == MG_ERROR_OK)
        rc = serve(&r, up, &in, &out, err, errlen);
    if (r.below)
        tell_all(&r, AGENT_PROTO_MSG_BYE, 0, &out);
    for (size_t j = 0; j < nbelow; j++)
        if (!r.below || r.below[j].fd >= 0)
            close(below[j]);
    close(up);
    free(r.below);
    agent_relay_free(&r);
    agent_proto_buf_free(&in);
    agent_proto_buf_free(&out);
    return rc == 1 ? MG_ERROR_OK : rc;
}
