/* Batched readings over the agent protocol (agent_reads.h). */
#include "agent_reads.h"

#include "mg_error.h"

#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

/* Takes a READ request's kind and count off c, the ranks left on it. An unknown kind is refused:
 * answering it as another would stop ranks the front meant to leave running, or the reverse. */
static int take_request(agent_proto_msg_type type, agent_proto_cursor *c, int *kind,
                        uint32_t *count, char *err, size_t errlen)
{
    uint32_t k;
    if (type != AGENT_PROTO_MSG_READ || agent_proto_get_u32(c, &k) ||
        agent_proto_get_u32(c, count) || (size_t)(c->end - c->p) / 4 < *count) {
        snprintf(err, errlen, "a reading request is not a READ frame holding its ranks");
        return MG_ERROR_EFORMAT;
    }
    if (k != AGENT_READS_PLAIN && k != AGENT_READS_CPU_TIME && k != AGENT_READS_GAP_ONLY) {
        snprintf(err, errlen, "a reading request of unknown kind %u", k);
        return MG_ERROR_EFORMAT;
    }
    *kind = (int)k;
    return MG_ERROR_OK;
}

int agent_reads_answer(agent_proto_msg_type type, agent_proto_cursor *request, agent_reads_fn read,
                       void *ctx, agent_proto_buf *reply, char *err, size_t errlen)
{
    uint32_t count, rank;
    int kind;
    int rc = take_request(type, request, &kind, &count, err, errlen);
    if (rc != MG_ERROR_OK)
        return rc;
    if (agent_proto_frame_begin(reply, AGENT_PROTO_MSG_READINGS) ||
        agent_proto_put_u32(reply, count))
        return MG_ERROR_ENOMEM;
    for (uint32_t i = 0; i < count; i++) {
        agent_proto_get_u32(request, &rank);
        agent_proto_reading r = {.rank = (int32_t)rank};
        read(ctx, (int32_t)rank, kind, &r);
        if (agent_proto_put_reading(reply, &r))
            return MG_ERROR_ENOMEM;
    }
    agent_proto_frame_finish(reply);
    return MG_ERROR_OK;
}

int agent_reads_ranks(agent_proto_msg_type type, const agent_proto_cursor *request, int *kind,
                      int *ranks, size_t max, size_t *count, char *err, size_t errlen)
{
    agent_proto_cursor c = *request;
    uint32_t n, rank;
    int rc = take_request(type, &c, kind, &n, err, errlen);
    if (rc != MG_ERROR_OK)
        return rc;
    if (n > max) {
        snprintf(err, errlen, "a reading request asks for %u ranks, past the %zu of the job", n,
                 max);
        return MG_ERROR_EFORMAT;
    }
    for (uint32_t i = 0; i < n; i++) {
        agent_proto_get_u32(&c, &rank);
        ranks[i] = (int)rank;
    }
    *count = n;
    return MG_ERROR_OK;
}

/* Rank at i of a list (NULL: every rank in order), -1 when it has no agent. */
static int owned_rank_at(const int *ranks, size_t i, const int *owner, size_t nranks)
{
    int r = ranks ? ranks[i] : (int)i;
    return r >= 0 && (size_t)r < nranks && owner[r] >= 0 ? r : -1;
}

void agent_reads_group(agent_reads_ask *asks, size_t nagents, const int *owner, size_t nranks,
                       const int *ranks, size_t count, int32_t *grouped, agent_proto_reading *out)
{
    /* A counting sort: each ask's count, its place, then its ranks. */
    for (size_t a = 0; a < nagents; a++)
        asks[a].count = 0;
    for (size_t i = 0; i < count; i++) {
        int r = owned_rank_at(ranks, i, owner, nranks);
        if (r >= 0)
            asks[owner[r]].count++;
    }
    size_t placed = 0;
    for (size_t a = 0; a < nagents; a++) {
        asks[a].ranks = grouped + placed;
        asks[a].out = out + placed;
        placed += asks[a].count;
        asks[a].count = 0;
    }
    for (size_t i = 0; i < count; i++) {
        int r = owned_rank_at(ranks, i, owner, nranks);
        if (r >= 0) {
            agent_reads_ask *a = &asks[owner[r]];
            grouped[a->ranks - grouped + (ptrdiff_t)a->count++] = r;
        }
    }
    for (size_t a = 0; a < nagents; a++)
        if (asks[a].fd < 0)
            asks[a].count = 0;
}

agent_proto_reading agent_reads_unseen(int32_t rank)
{
    return (agent_proto_reading){.rank = rank, .unseen = 1, .cpu_time_ns = -1, .cpu_slices = -1};
}

static void mark_unseen(agent_reads_ask *a)
{
    for (size_t i = 0; i < a->count; i++)
        a->out[i] = agent_reads_unseen(a->ranks[i]);
}

static int take_answer(agent_reads_ask *a, agent_proto_buf *buf, agent_reads_stats *stats,
                       char *err, size_t errlen)
{
    agent_proto_msg_type type;
    agent_proto_cursor c;
    uint32_t count;
    int rc = agent_proto_recv(a->fd, buf, &type, &c, err, errlen);
    if (rc != MG_ERROR_OK)
        return rc;
    if (stats) {
        stats->frames++;
        stats->bytes += AGENT_PROTO_FRAME_HEADER + buf->len;
    }
    if (type != AGENT_PROTO_MSG_READINGS || agent_proto_get_u32(&c, &count) || count != a->count) {
        snprintf(err, errlen, "an agent answered a reading request with another frame");
        return MG_ERROR_EFORMAT;
    }
    for (size_t i = 0; i < a->count; i++)
        if (agent_proto_get_reading(&c, &a->out[i]) || a->out[i].rank != a->ranks[i]) {
            snprintf(err, errlen, "an agent's readings do not match the ranks asked");
            return MG_ERROR_EFORMAT;
        }
    return MG_ERROR_OK;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Whether a's answer begins before its socket's receive timeout (SO_RCVTIMEO; none: no bound)
 * has passed since sent_ms: the agents asked at once answer at once, so that each silent one
 * costs the round that timeout from the same start, not one after the other (issue 31: a relay of
 * two silent agents took as long as the front's own bound on the relay). */
static int answer_begins(const agent_reads_ask *a, double sent_ms)
{
    struct timeval wait = {0};
    socklen_t len = sizeof wait;
    if (getsockopt(a->fd, SOL_SOCKET, SO_RCVTIMEO, &wait, &len) != 0 ||
        (wait.tv_sec == 0 && wait.tv_usec == 0))
        return 1;
    double left = sent_ms + (double)wait.tv_sec * 1e3 + (double)wait.tv_usec * 1e-3 - now_ms();
    struct pollfd p = {.fd = a->fd, .events = POLLIN};
    return poll(&p, 1, left > 0 ? (int)left + 1 : 0) > 0;
}

int agent_reads_round(agent_reads_ask *asks, size_t n, int kind, agent_proto_buf *buf,
                      agent_reads_stats *stats, char *err, size_t errlen)
{
    if (errlen > 0)
        err[0] = '\0';
    for (size_t k = 0; k < n; k++) {
        agent_reads_ask *a = &asks[k];
        a->rc = MG_ERROR_OK;
        if (a->count == 0)
            continue;
        mark_unseen(a);
        if (agent_proto_frame_begin(buf, AGENT_PROTO_MSG_READ) ||
            agent_proto_put_u32(buf, (uint32_t)kind) ||
            agent_proto_put_u32(buf, (uint32_t)a->count))
            return MG_ERROR_ENOMEM;
        for (size_t i = 0; i < a->count; i++)
            if (agent_proto_put_u32(buf, (uint32_t)a->ranks[i]))
                return MG_ERROR_ENOMEM;
        agent_proto_frame_finish(buf);
        a->rc = agent_proto_send(a->fd, buf);
        if (stats && a->rc == MG_ERROR_OK) {
            stats->frames++;
            stats->bytes += buf->len;
        }
    }
    char why[160] = "";
    double sent_ms = now_ms();
    for (size_t k = 0; k < n; k++) {
        agent_reads_ask *a = &asks[k];
        if (a->count == 0 || a->rc != MG_ERROR_OK)
            continue;
        a->rc = answer_begins(a, sent_ms) ? take_answer(a, buf, stats, why, sizeof why)
                                          : MG_ERROR_EIO;
        if (a->rc != MG_ERROR_OK)
            mark_unseen(a);
        if ((a->rc == MG_ERROR_EFORMAT || a->rc == MG_ERROR_EVERSION) && errlen > 0 &&
            err[0] == '\0')
            snprintf(err, errlen, "%s", why);
    }
    if (stats)
        stats->rounds++;
    return MG_ERROR_OK;
}
