/* Simulated node agents over the real agent protocol (sim_agents.h). */
#include "sim_agents.h"

#include "agent_relay.h"
#include "mg_error.h"

#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct sim_agents;

/* One thread answering requests on some sockets, one at a time. */
struct server {
    struct sim_agents *agents;
    struct pollfd *fds;
    size_t n;
    /* answers one request on fds[k]; 1 when that socket is done */
    int (*answer)(struct sim_agents *a, size_t k, agent_proto_buf *in, agent_proto_buf *out);
    pthread_t thread;
    bool running;
};

struct sim_agents {
    size_t nranks, nagents, nrelays, fanout;
    int *owner;    /* per rank: the front's agent (a relay in a tree, else a node agent) */
    int *front_fd; /* per agent of the front: the front's end */
    size_t nfront;
    agent_reads_ask *asks;
    int32_t *grouped;
    agent_proto_reading *round_out;
    size_t *taken; /* per agent of the front: its readings put back in order so far */
    agent_proto_buf front_buf;
    agent_reads_stats stats; /* both levels */
    double seconds;
    struct server nodes, relays;
    /* The relays' side: each relay's ends towards its node agents, every rank's node agent
     * among its relay's, and what a relay's round needs (one relay answers at a time). */
    int *relay_fd; /* per node agent */
    int *child_of; /* per rank */
    agent_reads_ask *relay_asks;
    agent_relay relay;
    /* The round's reader, set by the front before it sends. */
    pthread_mutex_t lock;
    agent_reads_fn read;
    void *ctx;
};

static double wall_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A node agent answers one request with the simulated ranks' readings. */
static int answer_node(struct sim_agents *a, size_t k, agent_proto_buf *in, agent_proto_buf *out)
{
    agent_proto_msg_type type;
    agent_proto_cursor c;
    char err[160];
    if (agent_proto_recv(a->nodes.fds[k].fd, in, &type, &c, err, sizeof err) != MG_ERROR_OK ||
        type == AGENT_PROTO_MSG_BYE)
        return 1;
    pthread_mutex_lock(&a->lock);
    agent_reads_fn read = a->read;
    void *ctx = a->ctx;
    pthread_mutex_unlock(&a->lock);
    if (agent_reads_answer(type, &c, read, ctx, out, err, sizeof err) != MG_ERROR_OK)
        return 1;
    return agent_proto_send(a->nodes.fds[k].fd, out) != MG_ERROR_OK;
}

/* Relay k answers one request: reads its ranks from the node agents below it in one round, then
 * answers with what they said (agent_relay_answer). On bye or a broken stream it closes its ends
 * below. */
static int answer_relay(struct sim_agents *a, size_t k, agent_proto_buf *in, agent_proto_buf *out)
{
    agent_proto_msg_type type;
    agent_proto_cursor c;
    char err[160];
    size_t first = k * a->fanout;
    size_t below = first + a->fanout <= a->nagents ? a->fanout : a->nagents - first;
    int rc = agent_proto_recv(a->relays.fds[k].fd, in, &type, &c, err, sizeof err);
    for (size_t j = 0; j < below; j++)
        a->relay_asks[j].fd = a->relay_fd[first + j];
    a->relay.nbelow = below;
    if (rc == MG_ERROR_OK && type != AGENT_PROTO_MSG_BYE)
        rc = agent_relay_answer(&a->relay, type, &c, out, err, sizeof err);
    if (rc != MG_ERROR_OK || type == AGENT_PROTO_MSG_BYE) {
        for (size_t j = first; j < first + below; j++)
            close(a->relay_fd[j]);
        return 1;
    }
    return agent_proto_send(a->relays.fds[k].fd, out) != MG_ERROR_OK;
}

static void *serve(void *arg)
{
    struct server *s = arg;
    agent_proto_buf in = {0}, out = {0};
    size_t open = s->n;
    while (open > 0 && poll(s->fds, s->n, -1) > 0) {
        for (size_t k = 0; k < s->n; k++) {
            if (s->fds[k].fd < 0 || !s->fds[k].revents)
                continue;
            if (s->answer(s->agents, k, &in, &out)) {
                close(s->fds[k].fd);
                s->fds[k].fd = -1;
                open--;
            }
        }
    }
    agent_proto_buf_free(&in);
    agent_proto_buf_free(&out);
    return NULL;
}

/* n socketpairs: the near ends into near, the far ends into far's pollfds. MG_ERROR_ESYS. */
static int pairs(size_t n, int *near, struct pollfd *far)
{
    for (size_t k = 0; k < n; k++) {
        int pair[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
            return MG_ERROR_ESYS;
        near[k] = pair[0];
        far[k] = (struct pollfd){.fd = pair[1], .events = POLLIN};
    }
    return MG_ERROR_OK;
}

static int start(struct server *s, struct sim_agents *a, struct pollfd *fds, size_t n,
                 int (*answer)(struct sim_agents *, size_t, agent_proto_buf *, agent_proto_buf *))
{
    *s = (struct server){.agents = a, .fds = fds, .n = n, .answer = answer};
    s->running = n > 0 && pthread_create(&s->thread, NULL, serve, s) == 0;
    return n == 0 || s->running ? MG_ERROR_OK : MG_ERROR_ESYS;
}

/* Marks ends not opened yet, for sim_agents_destroy after a failed set-up. */
static void unopened(int *near, struct pollfd *far, size_t nnear, size_t nfar)
{
    for (size_t k = 0; k < nnear; k++)
        near[k] = -1;
    for (size_t k = 0; k < nfar; k++)
        far[k].fd = -1;
}

static int set_up(struct sim_agents *a, size_t node_size)
{
    size_t n = a->nranks;
    a->nfront = a->nrelays ? a->nrelays : a->nagents;
    a->owner = malloc(n * sizeof *a->owner);
    a->front_fd = malloc(a->nfront * sizeof *a->front_fd);
    a->nodes.fds = calloc(a->nagents, sizeof *a->nodes.fds);
    a->asks = calloc(a->nfront, sizeof *a->asks);
    a->grouped = malloc(n * sizeof *a->grouped);
    a->round_out = malloc(n * sizeof *a->round_out);
    a->taken = malloc(a->nfront * sizeof *a->taken);
    if (!a->owner || !a->front_fd || !a->nodes.fds || !a->asks || !a->grouped || !a->round_out ||
        !a->taken)
        return MG_ERROR_ENOMEM;
    unopened(a->front_fd, a->nodes.fds, a->nfront, a->nagents);
    for (size_t r = 0; r < n; r++)
        a->owner[r] = (int)(r / node_size / (a->nrelays ? a->fanout : 1));
    if (!a->nrelays)
        return pairs(a->nagents, a->front_fd, a->nodes.fds);
    a->relays.fds = calloc(a->nrelays, sizeof *a->relays.fds);
    a->relay_fd = malloc(a->nagents * sizeof *a->relay_fd);
    a->child_of = malloc(n * sizeof *a->child_of);
    a->relay_asks = calloc(a->fanout, sizeof *a->relay_asks);
    a->relay.below = a->relay_asks;
    a->relay.child_of = a->child_of;
    if (agent_relay_init(&a->relay, n) != MG_ERROR_OK || !a->relays.fds || !a->relay_fd ||
        !a->child_of || !a->relay_asks)
        return MG_ERROR_ENOMEM;
    unopened(a->relay_fd, a->relays.fds, a->nagents, a->nrelays);
    for (size_t r = 0; r < n; r++)
        a->child_of[r] = (int)(r / node_size % a->fanout);
    int rc = pairs(a->nrelays, a->front_fd, a->relays.fds);
    return rc ? rc : pairs(a->nagents, a->relay_fd, a->nodes.fds);
}

int sim_agents_create(size_t nranks, size_t node_size, size_t fanout, struct sim_agents **out)
{
    *out = NULL;
    if (nranks == 0 || node_size == 0)
        return MG_ERROR_EINVAL;
    struct sim_agents *a = calloc(1, sizeof *a);
    if (!a)
        return MG_ERROR_ENOMEM;
    a->nranks = nranks;
    a->nagents = (nranks + node_size - 1) / node_size;
    a->fanout = fanout;
    a->nrelays = fanout ? (a->nagents + fanout - 1) / fanout : 0;
    pthread_mutex_init(&a->lock, NULL);
    int rc = set_up(a, node_size);
    if (rc == MG_ERROR_OK)
        rc = start(&a->nodes, a, a->nodes.fds, a->nagents, answer_node);
    if (rc == MG_ERROR_OK)
        rc = start(&a->relays, a, a->relays.fds, a->nrelays, answer_relay);
    if (rc != MG_ERROR_OK) {
        sim_agents_destroy(a);
        return rc;
    }
    *out = a;
    return MG_ERROR_OK;
}

static void close_all(int *fds, size_t n)
{
    for (size_t k = 0; fds && k < n; k++)
        if (fds[k] >= 0)
            close(fds[k]);
}

static void close_served(const struct server *s)
{
    for (size_t k = 0; s->fds && !s->running && k < s->n; k++)
        if (s->fds[k].fd >= 0)
            close(s->fds[k].fd);
}

void sim_agents_destroy(struct sim_agents *a)
{
    if (!a)
        return;
    /* Bye to the front's agents; a relay passes it on by closing its ends below. */
    for (size_t k = 0; a->front_fd && k < a->nfront; k++)
        if (a->front_fd[k] >= 0 &&
            agent_proto_frame_begin(&a->front_buf, AGENT_PROTO_MSG_BYE) == MG_ERROR_OK) {
            agent_proto_frame_finish(&a->front_buf);
            agent_proto_send(a->front_fd[k], &a->front_buf);
        }
    if (a->relays.running)
        pthread_join(a->relays.thread, NULL);
    else
        close_all(a->relay_fd, a->nagents);
    if (a->nodes.running)
        pthread_join(a->nodes.thread, NULL);
    close_all(a->front_fd, a->nfront);
    close_served(&a->relays);
    close_served(&a->nodes);
    pthread_mutex_destroy(&a->lock);
    agent_proto_buf_free(&a->front_buf);
    agent_relay_free(&a->relay);
    free(a->owner);
    free(a->front_fd);
    free(a->nodes.fds);
    free(a->relays.fds);
    free(a->asks);
    free(a->grouped);
    free(a->round_out);
    free(a->taken);
    free(a->relay_fd);
    free(a->child_of);
    free(a->relay_asks);
    free(a);
}

int sim_agents_read(struct sim_agents *a, const int *ranks, size_t count, int with_cpu_time,
                    agent_reads_fn read, void *ctx, agent_proto_reading *out, char *err,
                    size_t errlen)
{
    pthread_mutex_lock(&a->lock);
    a->read = read;
    a->ctx = ctx;
    pthread_mutex_unlock(&a->lock);
    for (size_t k = 0; k < a->nfront; k++)
        a->asks[k].fd = a->front_fd[k];
    agent_reads_group(a->asks, a->nfront, a->owner, a->nranks, ranks, count, a->grouped,
                      a->round_out);
    double began = wall_seconds();
    int rc = agent_reads_round(a->asks, a->nfront, with_cpu_time, &a->front_buf, &a->stats, err,
                               errlen);
    a->seconds += wall_seconds() - began;
    for (size_t k = 0; rc == MG_ERROR_OK && k < a->nfront; k++)
        if (a->asks[k].rc != MG_ERROR_OK)
            rc = MG_ERROR_EIO;
    if (rc != MG_ERROR_OK)
        return rc;
    /* back in the order asked: a rank's place in its agent's list follows its place in ranks */
    for (size_t k = 0; k < a->nfront; k++)
        a->taken[k] = 0;
    for (size_t i = 0; i < count; i++) {
        int k = a->owner[ranks ? ranks[i] : (int)i];
        out[i] = a->asks[k].out[a->taken[k]++];
    }
    return MG_ERROR_OK;
}

void sim_agents_stats(const struct sim_agents *a, agent_reads_stats *stats, double *seconds)
{
    /* the relays' rounds are read after the front's, which waited for them */
    *stats = a->stats;
    stats->frames += a->relay.stats.frames;
    stats->bytes += a->relay.stats.bytes;
    *seconds = a->seconds;
}
