/* Simulated node agents over the real agent protocol (sim_agents.h). */
#include "sim_agents.h"

#include "mg_error.h"

#include <poll.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct sim_agents {
    size_t nranks, nagents;
    int *owner;            /* per rank: its agent */
    int *front_fd;         /* per agent: the front's end */
    struct pollfd *served; /* per agent: the agent's end */
    agent_read_ask *asks;
    int32_t *grouped;
    agent_reading *round_out;
    size_t *taken; /* per agent: its readings put back in order so far */
    agent_buf front_buf;
    agent_read_stats stats;
    double seconds;
    pthread_t thread;
    bool thread_running;
    /* The round's reader, set by the front before it sends. */
    pthread_mutex_t lock;
    agent_read_fn read;
    void *ctx;
};

static double wall_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Answers one request on agent k's end; 1 when it said bye or its front is gone. */
static int serve_one(struct sim_agents *a, size_t k, agent_buf *in, agent_buf *out)
{
    agent_msg_type type;
    agent_cursor c;
    char err[160];
    if (agent_recv(a->served[k].fd, in, &type, &c, err, sizeof err) != MG_OK ||
        type == AGENT_MSG_BYE)
        return 1;
    pthread_mutex_lock(&a->lock);
    agent_read_fn read = a->read;
    void *ctx = a->ctx;
    pthread_mutex_unlock(&a->lock);
    if (agent_reads_answer(type, &c, read, ctx, out) != MG_OK)
        return 1;
    return agent_send(a->served[k].fd, out) != MG_OK;
}

static void *serve(void *arg)
{
    struct sim_agents *a = arg;
    agent_buf in = {0}, out = {0};
    size_t open = a->nagents;
    while (open > 0 && poll(a->served, a->nagents, -1) > 0) {
        for (size_t k = 0; k < a->nagents; k++) {
            if (a->served[k].fd < 0 || !a->served[k].revents)
                continue;
            if (serve_one(a, k, &in, &out)) {
                close(a->served[k].fd);
                a->served[k].fd = -1;
                open--;
            }
        }
    }
    agent_buf_free(&in);
    agent_buf_free(&out);
    return NULL;
}

int sim_agents_create(size_t nranks, size_t node_size, struct sim_agents **out)
{
    *out = NULL;
    if (nranks == 0 || node_size == 0)
        return MG_EINVAL;
    struct sim_agents *a = calloc(1, sizeof *a);
    if (!a)
        return MG_ENOMEM;
    a->nranks = nranks;
    a->nagents = (nranks + node_size - 1) / node_size;
    a->owner = malloc(nranks * sizeof *a->owner);
    a->front_fd = malloc(a->nagents * sizeof *a->front_fd);
    a->served = calloc(a->nagents, sizeof *a->served);
    a->asks = calloc(a->nagents, sizeof *a->asks);
    a->grouped = malloc(nranks * sizeof *a->grouped);
    a->round_out = malloc(nranks * sizeof *a->round_out);
    a->taken = malloc(a->nagents * sizeof *a->taken);
    pthread_mutex_init(&a->lock, NULL);
    if (!a->owner || !a->front_fd || !a->served || !a->asks || !a->grouped || !a->round_out ||
        !a->taken) {
        sim_agents_destroy(a);
        return MG_ENOMEM;
    }
    for (size_t r = 0; r < nranks; r++)
        a->owner[r] = (int)(r / node_size);
    for (size_t k = 0; k < a->nagents; k++)
        a->front_fd[k] = a->served[k].fd = -1;
    for (size_t k = 0; k < a->nagents; k++) {
        int pair[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
            sim_agents_destroy(a);
            return MG_ESYS;
        }
        a->front_fd[k] = pair[0];
        a->served[k] = (struct pollfd){.fd = pair[1], .events = POLLIN};
    }
    if (pthread_create(&a->thread, NULL, serve, a) != 0) {
        sim_agents_destroy(a);
        return MG_ESYS;
    }
    a->thread_running = true;
    *out = a;
    return MG_OK;
}

void sim_agents_destroy(struct sim_agents *a)
{
    if (!a)
        return;
    for (size_t k = 0; a->front_fd && k < a->nagents; k++) {
        if (a->front_fd[k] >= 0 && agent_frame_begin(&a->front_buf, AGENT_MSG_BYE) == MG_OK) {
            agent_frame_finish(&a->front_buf);
            agent_send(a->front_fd[k], &a->front_buf);
        }
    }
    if (a->thread_running)
        pthread_join(a->thread, NULL);
    for (size_t k = 0; a->front_fd && k < a->nagents; k++) {
        if (a->front_fd[k] >= 0)
            close(a->front_fd[k]);
        if (a->served[k].fd >= 0)
            close(a->served[k].fd);
    }
    pthread_mutex_destroy(&a->lock);
    agent_buf_free(&a->front_buf);
    free(a->owner);
    free(a->front_fd);
    free(a->served);
    free(a->asks);
    free(a->grouped);
    free(a->round_out);
    free(a->taken);
    free(a);
}

int sim_agents_read(struct sim_agents *a, const int *ranks, size_t count, int with_cpu_time,
                    agent_read_fn read, void *ctx, agent_reading *out, char *err, size_t errlen)
{
    pthread_mutex_lock(&a->lock);
    a->read = read;
    a->ctx = ctx;
    pthread_mutex_unlock(&a->lock);
    for (size_t k = 0; k < a->nagents; k++)
        a->asks[k].fd = a->front_fd[k];
    agent_read_group(a->asks, a->nagents, a->owner, a->nranks, ranks, count, a->grouped,
                     a->round_out);
    double began = wall_seconds();
    int rc = agent_read_round(a->asks, a->nagents, with_cpu_time, &a->front_buf, &a->stats, err,
                              errlen);
    a->seconds += wall_seconds() - began;
    for (size_t k = 0; rc == MG_OK && k < a->nagents; k++)
        if (a->asks[k].rc != MG_OK)
            rc = MG_EIO;
    if (rc != MG_OK)
        return rc;
    /* back in the order asked: a rank's place in its agent's list follows its place in ranks */
    for (size_t k = 0; k < a->nagents; k++)
        a->taken[k] = 0;
    for (size_t i = 0; i < count; i++) {
        int k = a->owner[ranks ? ranks[i] : (int)i];
        out[i] = a->asks[k].out[a->taken[k]++];
    }
    return MG_OK;
}

void sim_agents_stats(const struct sim_agents *a, agent_read_stats *stats, double *seconds)
{
    *stats = a->stats;
    *seconds = a->seconds;
}
