/* The per-node agent of hang detection (hang_agent.h). */
#include "hang_agent.h"

#include "agent_proto.h"
#include "agent_reads.h"
#include "agent_waits.h"
#include "mg_error.h"
#include "rank_scan.h"
#include "rank_stack.h"
#include "rank_state_reader.h"
#include "mg_clock.h"

#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct owned_rank {
    int rank, pid;
    rank_probe *probe;
} owned_rank;

static int connect_to(const char *host, int port)
{
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res, *ai;
    if (getaddrinfo(host, service, &hints, &res) != 0)
        return -1;
    int fd = -1;
    for (ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    return fd;
}

/* Waits for this node's ranks: all of [first, last] when given, else a count that stays the same
 * for a second. Returns how many were found (into *owned, malloc'd) and the world size. */
static size_t discover(const hang_agent_params *p, owned_rank **owned, int *world)
{
    rank_scan_selector sel = {.token = p->token};
    double deadline = mg_clock_seconds() + p->discover_seconds, stable_since = mg_clock_seconds();
    size_t last_count = 0, kept = 0;
    *owned = NULL;
    for (;;) {
        rank_scan_proc *procs;
        size_t n;
        if (rank_scan("/proc", &sel, &procs, &n) == MG_ERROR_OK) {
            free(*owned);
            *owned = calloc(n ? n : 1, sizeof **owned);
            kept = 0;
            for (size_t i = 0; *owned && i < n; i++) {
                if (p->first_rank >= 0 &&
                    (procs[i].rank < p->first_rank || procs[i].rank > p->last_rank))
                    continue;
                (*owned)[kept++] = (owned_rank){.rank = procs[i].rank, .pid = procs[i].pid};
                *world = procs[i].size;
            }
            free(procs);
        }
        int complete = p->first_rank >= 0 ? kept == (size_t)(p->last_rank - p->first_rank + 1)
                                          : kept > 0 && mg_clock_seconds() - stable_since >= 1.0;
        if (kept != last_count) {
            last_count = kept;
            stable_since = mg_clock_seconds();
        }
        if (complete || mg_clock_seconds() > deadline)
            return kept;
        usleep(100000);
    }
}

static owned_rank *find(owned_rank *owned, size_t n, int rank)
{
    for (size_t i = 0; i < n; i++)
        if (owned[i].rank == rank)
            return &owned[i];
    return NULL;
}

/* The ranks an agent answers for (agent_reads_fn's context). */
typedef struct node_ranks {
    const hang_agent_params *params;
    owned_rank *owned;
    size_t n;
} node_ranks;

_Static_assert((int)AGENT_READS_CPU_TIME == (int)RANK_PROBE_CPU_TIME &&
                   (int)AGENT_READS_GAP_ONLY == (int)RANK_PROBE_GAP_ONLY,
               "a READ's kind is what the probe is asked");

/* Reads a rank as the front asked (kind): a gap-only reading, as the local one, stops no rank
 * sampled before (rank_probe_read). */
static void read_rank(void *ctx, int32_t rank, int kind, agent_proto_reading *out)
{
    node_ranks *node = ctx;
    owned_rank *o = find(node->owned, node->n, rank);
    *out = (agent_proto_reading){.rank = rank, .unseen = 1, .cpu_time_ns = -1, .cpu_slices = -1};
    rank_probe_reading reading;
    if (!o || rank_probe_read_opening(node->params->kind, node->params->token, o->rank, o->pid,
                                      &o->probe, kind, &reading))
        return;
    *out = (agent_proto_reading){.rank = rank,
                                 .exited = (uint8_t)reading.exited,
                                 .in_mpi = (uint8_t)reading.in_mpi,
                                 .progressed = (uint8_t)reading.progressed,
                                 .counter_known = (uint8_t)reading.counter_known,
                                 .fn = reading.fn,
                                 .counter = reading.counter,
                                 .runnable = (uint8_t)reading.runnable,
                                 .stopped = (uint8_t)reading.stopped,
                                 .cpu_time_ns = reading.cpu_time_ns,
                                 .cpu_slices = reading.cpu_slices,
                                 .held_ns = reading.held_ns,
                                 .frozen_ns = reading.frozen_ns};
}

/* A rank's stack, then what its blocking call waits for as it published it (nothing for a rank
 * that publishes no state: a job not started by mpiguard): the front's culprit search reads it as
 * it reads a local rank's segment. */
static int put_stack(const hang_agent_params *p, owned_rank *o, agent_proto_buf *b)
{
    rank_stack *st = calloc(1, sizeof *st);
    if (!st)
        return MG_ERROR_ENOMEM;
    if (o && (o->probe || rank_probe_open(p->kind, p->token, o->rank, o->pid, &o->probe) == 0))
        rank_probe_stack(o->probe, st);
    int rc = rank_stack_put(b, st);
    free(st);
    const rank_state *state = NULL;
    if (!rc && o)
        (void)rank_state_reader_open(p->token, o->rank, &state);
    rc = rc || agent_waits_put(b, state);
    rank_state_reader_close(state);
    return rc ? MG_ERROR_ENOMEM : MG_ERROR_OK;
}

/* Answers one request (received into in, answered from out); returns 1 on BYE, a negative code
 * when the stream is broken (with err naming a malformed frame). */
static int serve(const hang_agent_params *p, int fd, owned_rank *owned, size_t n,
                 agent_proto_buf *in, agent_proto_buf *out, char *err, size_t errlen)
{
    agent_proto_msg_type type;
    agent_proto_cursor c;
    uint32_t count, value;
    int rc = agent_proto_recv(fd, in, &type, &c, err, errlen);
    if (rc)
        return rc;
    if (type == AGENT_PROTO_MSG_BYE)
        return 1;
    if (type == AGENT_PROTO_MSG_SIGNAL) {
        if (agent_proto_get_u32(&c, &value))
            return MG_ERROR_EFORMAT;
        for (size_t i = 0; i < n; i++)
            kill(owned[i].pid, (int)value);
        return 0;
    }
    if (type == AGENT_PROTO_MSG_READ) {
        node_ranks node = {p, owned, n};
        rc = agent_reads_answer(type, &c, read_rank, &node, out, err, errlen);
        return rc ? rc : agent_proto_send(fd, out);
    }
    if (type != AGENT_PROTO_MSG_STACKS || agent_proto_get_u32(&c, &count) || count != 1 ||
        agent_proto_get_u32(&c, &value))
        return MG_ERROR_EFORMAT;
    rc = agent_proto_frame_begin(out, AGENT_PROTO_MSG_STACK) ||
         put_stack(p, find(owned, n, (int)value), out);
    if (rc)
        return MG_ERROR_ENOMEM;
    agent_proto_frame_finish(out);
    return agent_proto_send(fd, out);
}

int hang_agent_run(const hang_agent_params *p, char *err, size_t errlen)
{
    owned_rank *owned;
    int world = 0;
    size_t n = discover(p, &owned, &world);
    if (n == 0 || world <= 0) {
        snprintf(err, errlen, "no rank of job %s on this node", p->token);
        free(owned);
        return MG_ERROR_ENOENT;
    }
    int fd = connect_to(p->host, p->port);
    if (fd < 0) {
        snprintf(err, errlen, "cannot reach the front at %s:%d", p->host, p->port);
        free(owned);
        return MG_ERROR_EIO;
    }
    char node[64] = "";
    gethostname(node, sizeof node - 1);
    agent_proto_buf b = {0}, answer = {0};
    int rc = agent_proto_auth_send(fd, p->secret) ||
             agent_proto_frame_begin(&b, AGENT_PROTO_MSG_HELLO) ||
             agent_proto_put_u32(&b, AGENT_PROTO_TOOL_HANG) || agent_proto_put_str(&b, p->token) ||
             agent_proto_put_u32(&b, (uint32_t)world) || agent_proto_put_u32(&b, (uint32_t)n) ||
             agent_proto_put_u32(&b, (uint32_t)(1e6 * rank_scan_cpu_share(n))) ||
             agent_proto_put_str(&b, node);
    for (size_t i = 0; !rc && i < n; i++)
        rc = agent_proto_put_u32(&b, (uint32_t)owned[i].rank) ||
             agent_proto_put_u32(&b, (uint32_t)owned[i].pid);
    if (!rc) {
        agent_proto_frame_finish(&b);
        rc = agent_proto_send(fd, &b);
    }
    while (rc == MG_ERROR_OK)
        rc = serve(p, fd, owned, n, &b, &answer, err, errlen);
    for (size_t i = 0; i < n; i++)
        rank_probe_close(owned[i].probe);
    free(owned);
    agent_proto_buf_free(&b);
    agent_proto_buf_free(&answer);
    close(fd);
    /* The front went away or said bye: either way the agent's work is done. */
    return rc == 1 || rc == MG_ERROR_EIO ? MG_ERROR_OK : rc;
}
