/* Front side of the agent protocol for hang detection (hang_remote.h). */
#include "hang_remote.h"

#include "agent_proto.h"
#include "agent_reads.h"
#include "agent_start.h"
#include "agent_waits.h"
#include "hang_relay.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "mg_ranks.h"
#include "mg_clock.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

/* An agent that has not answered a request after ANSWER_WAIT_MS is lost (its node's link went
 * down: no reset ever comes), rather than holding the front forever; a ptrace stack sample on a
 * node at load 70 takes well under a second. */
enum { MAX_AGENTS = 4096, ANSWER_WAIT_MS = 30000 };

/* What the front talks to: a node agent, or a relay of nbelow of them. */
typedef struct agent_link {
    int fd;
    unsigned long requests;
    int *ranks;
    size_t nranks;
    int nbelow; /* 0: a node agent */
} agent_link;

struct hang_remote {
    const char *token; /* the job's */
    int world;         /* the job's size, once known */
    int found;         /* ranks owned by an agent */
    int listen_fd;
    agent_link agents[MAX_AGENTS];
    int nagents;
    int *owner;        /* per rank: index of its agent (or relay), -1 */
    double *cpu_share; /* per rank: its CPU share on its node, as its agent's HELLO said */
    int *pid;          /* per rank: its process id on its node, 0 when no agent owns it */
    char (*node)[HANG_REMOTE_NODE]; /* per rank: its agent's node, "" when the agents run here */
    pid_t relays[MAX_AGENTS];
    int nrelays;
    job_handle *jobs[MAX_AGENTS];
    uint8_t secret[AGENT_PROTO_SECRET_BYTES];
    int here; /* the agents run on this machine */
    int njobs;
    agent_proto_buf buf;
    /* Readings taken in rounds (hang_remote_prefetch), per rank, until hang_remote_read takes
     * them: fresh[r] is the round that read rank r, 0 once taken. */
    agent_proto_reading *readings;
    uint64_t *fresh;
    /* Per rank: a relay said its agent below is lost (the relay's own link is still up). */
    uint8_t *lost_below;
    int round_with_cpu;   /* the last round read CPU times */
    int32_t *round_ranks; /* a round's ranks grouped by agent, and their readings */
    agent_proto_reading *round_out;
    agent_reads_ask *asks; /* one per agent */
    agent_reads_stats stats;
    double round_seconds; /* spent in rounds */
    /* Per rank: what it waits for as its agent forwarded it with its stack (hang_remote_stack),
     * which the caller's state of the rank points at when no segment of this node is mapped. */
    rank_state *published;
};

static int start_agent(hang_remote *h, const hang_remote_options *o, char **argv)
{
    char err[256];
    if (h->njobs == MAX_AGENTS || agent_start_launch(o->local_agents ? NULL : o->agent_launcher,
                                                     argv, &h->jobs[h->njobs], err, sizeof err)) {
        mg_log_error("hang: cannot start an agent: %s", err);
        return -1;
    }
    h->njobs++;
    return 0;
}

/* Starts the agents: [launcher words...] mpiguard agent hang --connect H:P --token T --sampler S
 * [--ranks LIST], with the secret in their environment. */
static int start_agents(hang_remote *h, const hang_remote_options *o, const char *connect)
{
    char self[4096], ranks[64];
    if (agent_start_self(self, sizeof self) != MG_ERROR_OK ||
        agent_start_secret(h->secret) != MG_ERROR_OK)
        return -1;
    char *argv[] = {self,
                    "agent",
                    "hang",
                    "--connect",
                    (char *)connect,
                    "--token",
                    (char *)h->token,
                    "--sampler",
                    (char *)o->sampler,
                    NULL,
                    NULL,
                    NULL};
    if (!o->local_agents)
        return start_agent(h, o, argv);
    int world = h->world;
    for (int a = 0; a < o->local_agents; a++) {
        int first = world * a / o->local_agents, last = world * (a + 1) / o->local_agents - 1;
        if (first > last)
            continue;
        snprintf(ranks, sizeof ranks, "%d-%d", first, last);
        argv[9] = "--ranks";
        argv[10] = ranks;
        if (start_agent(h, o, argv))
            return -1;
    }
    return 0;
}

static void free_rank_arrays(hang_remote *h)
{
    free(h->owner);
    free(h->cpu_share);
    free(h->pid);
    free(h->node);
    h->owner = NULL;
    h->cpu_share = NULL;
    h->pid = NULL;
    h->node = NULL;
}

/* The per-rank arrays, sized once the job's size is known: no rank owned yet. */
static int rank_arrays(hang_remote *h)
{
    size_t n = (size_t)h->world;
    h->owner = malloc(n * sizeof *h->owner);
    h->cpu_share = malloc(n * sizeof *h->cpu_share);
    h->pid = calloc(n, sizeof *h->pid);
    h->node = calloc(n, sizeof *h->node);
    if (!h->owner || !h->cpu_share || !h->pid || !h->node) {
        free_rank_arrays(h);
        return MG_ERROR_ENOMEM;
    }
    for (size_t r = 0; r < n; r++)
        h->owner[r] = -1;
    return MG_ERROR_OK;
}

/* Reads one agent's HELLO and records the ranks it owns. */
static int accept_agent(hang_remote *h, int fd)
{
    agent_proto_msg_type type;
    agent_proto_cursor c;
    uint32_t tool, world, count, share_ppm;
    char token[64], node[64], err[160];
    /* Nothing of a connection is read before its secret: a stranger is refused whatever it
     * sends, and one that sends nothing holds the front for AGENT_PROTO_AUTH_WAIT_MS at most. */
    struct timeval wait = {.tv_sec = AGENT_PROTO_AUTH_WAIT_MS / 1000,
                           .tv_usec = AGENT_PROTO_AUTH_WAIT_MS % 1000 * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    int rc = agent_proto_auth_recv(fd, h->secret);
    if (rc != MG_ERROR_OK) {
        char peer[80];
        agent_proto_peer_name(fd, peer, sizeof peer);
        if (rc == MG_ERROR_EPERM)
            mg_log_warn("hang: a connection from %s without this run's agent secret was refused",
                        peer);
        else
            mg_log_warn("hang: closing the connection from %s: it sent fewer than the %u bytes of "
                        "this run's agent secret (the AUTH frame) in %.0f s, or closed",
                        peer, AGENT_PROTO_AUTH_SIZE, AGENT_PROTO_AUTH_WAIT_MS / 1000.0);
        return -1;
    }
    rc = agent_proto_recv(fd, &h->buf, &type, &c, err, sizeof err);
    if (rc == MG_ERROR_EFORMAT || rc == MG_ERROR_EVERSION) {
        mg_log_warn("hang: a connection was refused: %s", err);
        return -1;
    }
    if (rc || type != AGENT_PROTO_MSG_HELLO || agent_proto_get_u32(&c, &tool) ||
        tool != AGENT_PROTO_TOOL_HANG || agent_proto_get_str(&c, token, sizeof token) ||
        strcmp(token, h->token) != 0 || agent_proto_get_u32(&c, &world) ||
        agent_proto_get_u32(&c, &count) || agent_proto_get_u32(&c, &share_ppm) ||
        agent_proto_get_str(&c, node, sizeof node) || world == 0 || world > AGENT_PROTO_MAX_WORLD) {
        mg_log_warn("hang: a connection that is not one of this job's agents was refused");
        return -1;
    }
    if (h->world == 0)
        h->world = (int)world;
    if (!h->owner && rank_arrays(h) != MG_ERROR_OK)
        return -1;
    wait = (struct timeval){.tv_sec = ANSWER_WAIT_MS / 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    agent_link *a = &h->agents[h->nagents];
    *a = (agent_link){.fd = fd, .ranks = malloc((count ? count : 1) * sizeof(int))};
    if (!a->ranks) {
        mg_log_warn("hang: an agent was refused: %s", mg_error_string(MG_ERROR_ENOMEM));
        return -1;
    }
    for (uint32_t i = 0; i < count; i++) {
        uint32_t rank, pid;
        if (agent_proto_get_u32(&c, &rank) || agent_proto_get_u32(&c, &pid) ||
            rank >= (uint32_t)h->world)
            return -1;
        if (h->owner[rank] < 0) {
            h->owner[rank] = h->nagents;
            h->cpu_share[rank] = 1e-6 * share_ppm;
            h->pid[rank] = (int)pid;
            /* the report names each rank's node (agents on this machine: this one) */
            if (!h->here)
                snprintf(h->node[rank], sizeof h->node[rank], "%s", node);
            h->found++;
            a->ranks[a->nranks++] = (int)rank;
        }
    }
    h->nagents++;
    return 0;
}

/* Relay g's process: keeps the connections of its agents (first..first+nbelow) and the front's
 * end up, closes every other descriptor of the front's it has, and serves (hang_relay_run). */
static void run_relay(hang_remote *h, int up, int first, int nbelow, int *child_of)
{
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
        signal(signals[i], SIG_DFL); /* the front's handlers stop the job: not a relay's work */
    close(h->listen_fd);
    int *below = malloc((size_t)(nbelow ? nbelow : 1) * sizeof *below);
    for (int a = 0; a < h->nagents; a++)
        if (a >= first && a < first + nbelow && below)
            below[a - first] = h->agents[a].fd;
        else if (h->agents[a].fd >= 0)
            close(h->agents[a].fd);
    char err[160] = "";
    int rc = below ? hang_relay_run(up, below, (size_t)nbelow, child_of, (size_t)h->world, err,
                                    sizeof err)
                   : MG_ERROR_ENOMEM;
    if (rc != MG_ERROR_OK)
        mg_log_warn("hang: a relay of the agents stopped: %s%s%s", mg_error_string(rc),
                    err[0] ? ": " : "", err);
    _exit(rc == MG_ERROR_OK ? 0 : 1);
}

/* Puts the agents under relays of fanout each (hang_relay.h; docs/hang.md "Many nodes"), so that
 * the front holds one connection per relay: each relay is a process forked here that takes over
 * its agents' connections, which the front then closes. The relays' links replace the agents'. */
static int start_relays(hang_remote *h, int fanout)
{
    int n = h->world, nrelays = (h->nagents + fanout - 1) / fanout;
    int *child_of = malloc((size_t)n * sizeof *child_of);
    agent_link *links = calloc((size_t)nrelays, sizeof *links);
    if (!child_of || !links) {
        free(child_of);
        free(links);
        return -1;
    }
    for (int g = 0; g < nrelays; g++)
        links[g].fd = -1;
    for (int g = 0; g < nrelays; g++) {
        int first = g * fanout, nbelow = h->nagents - first < fanout ? h->nagents - first : fanout;
        for (int r = 0; r < n; r++)
            child_of[r] = h->owner[r] >= first && h->owner[r] < first + nbelow ? h->owner[r] - first
                                                                               : -1;
        int pair[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
            break;
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            close(pair[0]);
            for (int k = 0; k < g; k++)
                close(links[k].fd);
            run_relay(h, pair[1], first, nbelow, child_of);
        }
        close(pair[1]);
        if (pid < 0) {
            close(pair[0]);
            break;
        }
        h->relays[h->nrelays++] = pid;
        /* the relay's own wait for a silent agent below it ends first */
        struct timeval wait = {.tv_sec = 2 * ANSWER_WAIT_MS / 1000};
        setsockopt(pair[0], SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
        links[g] = (agent_link){
            .fd = pair[0], .nbelow = nbelow, .ranks = malloc((size_t)n * sizeof(int))};
        for (int a = first; a < first + nbelow; a++) {
            for (size_t i = 0; links[g].ranks && i < h->agents[a].nranks; i++)
                links[g].ranks[links[g].nranks++] = h->agents[a].ranks[i];
            close(h->agents[a].fd);
            h->agents[a].fd = -1;
        }
    }
    int made = h->nrelays;
    for (int r = 0; r < n; r++)
        h->owner[r] = h->owner[r] >= 0 ? h->owner[r] / fanout : -1;
    for (int a = 0; a < h->nagents; a++)
        free(h->agents[a].ranks);
    for (int g = 0; g < nrelays; g++)
        h->agents[g] = links[g];
    h->nagents = nrelays;
    free(links);
    free(child_of);
    mg_log_info("hang: the front reads them through %d relays of up to %d agents", made, fanout);
    return made == nrelays ? 0 : -1;
}

int hang_remote_start(const hang_remote_options *o, hang_remote **out)
{
    *out = NULL;
    hang_remote *h = calloc(1, sizeof *h);
    if (!h)
        return MG_EXIT_SOFTWARE;
    h->token = o->token;
    h->world = o->world;
    h->here = o->local_agents > 0;
    *out = h;
    char connect[300], err[256] = "";
    h->listen_fd = agent_start_listen(o->local_agents > 0, 0, connect, sizeof connect, err,
                                      sizeof err);
    if (h->listen_fd < 0 || start_agents(h, o, connect)) {
        mg_log_error("hang: cannot start the agents%s%s", err[0] ? ": " : "", err);
        return MG_EXIT_SOFTWARE;
    }
    if (h->world > 0 && rank_arrays(h) != MG_ERROR_OK) {
        mg_log_error("hang: %s", mg_error_string(MG_ERROR_ENOMEM));
        return MG_EXIT_SOFTWARE;
    }
    double deadline = mg_clock_seconds() + o->connect_timeout;
    int expected = o->local_agents ? h->njobs : -1;
    while ((expected < 0 ? h->world == 0 || h->found < h->world : h->nagents < expected) &&
           mg_clock_seconds() < deadline && h->nagents < MAX_AGENTS) {
        struct pollfd pfd = {.fd = h->listen_fd, .events = POLLIN};
        if (poll(&pfd, 1, 200) <= 0)
            continue;
        int fd = accept4(h->listen_fd, NULL, NULL, SOCK_CLOEXEC);
        if (fd >= 0 && accept_agent(h, fd) != 0)
            close(fd);
    }
    if (h->world == 0 || h->found == 0) {
        mg_log_error("hang: the agents found no rank of the job");
        return MG_EXIT_NOINPUT;
    }
    if (h->found < h->world)
        mg_log_warn("hang: the agents own %d of %d ranks; the others are not watched", h->found,
                    h->world);
    mg_log_info("hang: %d agents own %d ranks", h->nagents, h->found);
    if (o->fanout > 0 && h->nagents > o->fanout && start_relays(h, o->fanout) != 0) {
        mg_log_error("hang: cannot start the agents' relays");
        return MG_EXIT_SOFTWARE;
    }
    return 0;
}

/* Asks rank r's agent for its stack and receives the answer frame. */
static int ask_stack(hang_remote *h, int r, agent_proto_cursor *c)
{
    if (r < 0 || r >= h->world || h->owner[r] < 0)
        return MG_ERROR_ENOENT;
    agent_link *a = &h->agents[h->owner[r]];
    agent_proto_msg_type type;
    char err[160];
    if (a->fd < 0)
        return MG_ERROR_EIO;
    if (agent_proto_frame_begin(&h->buf, AGENT_PROTO_MSG_STACKS) ||
        agent_proto_put_u32(&h->buf, 1) || agent_proto_put_u32(&h->buf, (uint32_t)r))
        return MG_ERROR_ENOMEM;
    agent_proto_frame_finish(&h->buf);
    int rc = agent_proto_send(a->fd, &h->buf);
    if (rc == MG_ERROR_OK)
        rc = agent_proto_recv(a->fd, &h->buf, &type, c, err, sizeof err);
    if (rc == MG_ERROR_EFORMAT || rc == MG_ERROR_EVERSION)
        mg_log_warn("hang: closing an agent's connection: %s", err);
    if (rc != MG_ERROR_OK || type != AGENT_PROTO_MSG_STACK) {
        close(a->fd);
        a->fd = -1;
        return MG_ERROR_EIO;
    }
    a->requests++;
    return MG_ERROR_OK;
}

/* The per-rank and per-round arrays, sized once the agents said how many ranks there are. */
static int round_arrays(hang_remote *h)
{
    size_t n = (size_t)h->world;
    if (h->readings)
        return MG_ERROR_OK;
    h->readings = calloc(n, sizeof *h->readings);
    h->fresh = calloc(n, sizeof *h->fresh);
    h->lost_below = calloc(n, sizeof *h->lost_below);
    h->round_ranks = calloc(n, sizeof *h->round_ranks);
    h->round_out = calloc(n, sizeof *h->round_out);
    h->asks = calloc((size_t)h->nagents, sizeof *h->asks);
    return h->readings && h->fresh && h->lost_below && h->round_ranks && h->round_out && h->asks
               ? MG_ERROR_OK
               : MG_ERROR_ENOMEM;
}

int hang_remote_prefetch(hang_remote *h, const int *ranks, size_t count, int with_cpu_time)
{
    if (round_arrays(h) != MG_ERROR_OK)
        return MG_ERROR_ENOMEM;
    agent_reads_ask *asks = h->asks;
    for (int a = 0; a < h->nagents; a++)
        asks[a].fd = h->agents[a].fd;
    agent_reads_group(asks, (size_t)h->nagents, h->owner, (size_t)h->world, ranks, count,
                      h->round_ranks, h->round_out);
    char err[160];
    double began = mg_clock_seconds();
    int rc = agent_reads_round(asks, (size_t)h->nagents, with_cpu_time, &h->buf, &h->stats, err,
                               sizeof err);
    h->round_seconds += mg_clock_seconds() - began;
    if (rc != MG_ERROR_OK)
        return rc;
    if (err[0])
        mg_log_warn("hang: closing an agent's connection: %s", err);
    h->round_with_cpu = with_cpu_time;
    for (int a = 0; a < h->nagents; a++) {
        if (asks[a].count == 0)
            continue;
        if (asks[a].rc != MG_ERROR_OK) {
            close(h->agents[a].fd);
            h->agents[a].fd = -1;
            continue;
        }
        h->agents[a].requests++;
        for (size_t i = 0; i < asks[a].count; i++) {
            h->readings[asks[a].ranks[i]] = asks[a].out[i];
            h->fresh[asks[a].ranks[i]] = h->stats.rounds;
            h->lost_below[asks[a].ranks[i]] |= asks[a].out[i].lost;
        }
    }
    return MG_ERROR_OK;
}

/* 1 when rank r's reading of the last round, with or without CPU time as asked, is not taken. */
static int fresh(const hang_remote *h, int r, int with_cpu_time)
{
    return h->fresh && h->fresh[r] == h->stats.rounds && h->round_with_cpu == with_cpu_time;
}

int hang_remote_read(hang_remote *h, int r, int with_cpu_time, rank_probe_reading *out, int *unseen)
{
    if (r < 0 || r >= h->world || h->owner[r] < 0)
        return MG_ERROR_ENOENT;
    if (!fresh(h, r, with_cpu_time)) {
        int rc = hang_remote_prefetch(h, &r, 1, with_cpu_time);
        if (rc != MG_ERROR_OK)
            return rc;
        if (!fresh(h, r, with_cpu_time))
            return MG_ERROR_EIO; /* its agent is lost */
    }
    const agent_proto_reading *reading = &h->readings[r];
    h->fresh[r] = 0;
    if (reading->lost)
        return MG_ERROR_EIO; /* its agent behind a relay is lost */
    *out = (rank_probe_reading){.exited = reading->exited,
                                .in_mpi = reading->in_mpi,
                                .progressed = reading->progressed,
                                .fn = (mpi_function_ids_fn)reading->fn,
                                .counter_known = reading->counter_known,
                                .counter = reading->counter,
                                .runnable = reading->runnable,
                                .stopped = reading->stopped,
                                .cpu_time_ns = reading->cpu_time_ns,
                                .cpu_slices = reading->cpu_slices,
                                .held_ns = reading->held_ns,
                                .frozen_ns = reading->frozen_ns};
    *unseen = reading->unseen;
    return MG_ERROR_OK;
}

int hang_remote_lost(const hang_remote *h, int r)
{
    return r >= 0 && r < h->world && h->owner[r] >= 0 &&
           (h->agents[h->owner[r]].fd < 0 || (h->lost_below && h->lost_below[r]));
}

int hang_remote_all_lost(const hang_remote *h)
{
    for (int r = 0; r < h->world; r++)
        if (h->owner[r] >= 0 && !hang_remote_lost(h, r))
            return 0;
    return 1;
}

int hang_remote_world(const hang_remote *h)
{
    return h->world;
}

int hang_remote_pid(const hang_remote *h, int r, const char **node)
{
    *node = "";
    if (r < 0 || r >= h->world || h->owner[r] < 0)
        return 0;
    *node = h->node[r];
    return h->pid[r];
}

bool hang_remote_forwarded(const hang_remote *h, const rank_state *state)
{
    return h && h->published && state >= h->published && state < h->published + h->world;
}

int hang_remote_here(const hang_remote *h)
{
    return h->here;
}

double hang_remote_cpu_share(const hang_remote *h, int r)
{
    if (r < 0 || r >= h->world || h->owner[r] < 0)
        return 1;
    return h->cpu_share[r];
}

/* Takes rank r's published wait after its stack; the caller's state of the rank then reads it as
 * a local segment, unless one of this node is mapped for it (agents here, --agents). */
static void take_wait(hang_remote *h, int r, agent_proto_cursor *c, const rank_state **state)
{
    if (*state && *state != &h->published[r])
        return;
    bool published = false;
    rank_state copy;
    if (agent_waits_get(c, &copy, &published) != MG_ERROR_OK) {
        mg_log_warn("hang: rank %d's agent sent a malformed published wait; its wait is not known",
                    r);
        published = false;
    }
    if (published)
        h->published[r] = copy;
    *state = published ? &h->published[r] : NULL;
}

void hang_remote_stack(hang_remote *h, int r, rank_stack *out, const rank_state **state)
{
    memset(out, 0, sizeof *out);
    agent_proto_cursor c;
    if ((!h->published && !(h->published = calloc((size_t)h->world, sizeof *h->published))) ||
        ask_stack(h, r, &c) || rank_stack_take(&c, out))
        return;
    take_wait(h, r, &c, state);
}

void hang_remote_stop(hang_remote *h)
{
    if (!h)
        return;
    if (h->stats.rounds > 0)
        mg_log_info("hang: %llu reading rounds: %.2f agent frames, %.0f bytes, %.3f ms each",
                    (unsigned long long)h->stats.rounds,
                    (double)h->stats.frames / (double)h->stats.rounds,
                    (double)h->stats.bytes / (double)h->stats.rounds,
                    1e3 * h->round_seconds / (double)h->stats.rounds);
    for (int a = 0; a < h->nagents; a++) {
        agent_link *l = &h->agents[a];
        char ranks[128];
        mg_ranks_format(l->ranks, l->nranks, ranks, sizeof ranks);
        if (l->nbelow > 0)
            mg_log_info("hang: relay %d (%d agent%s, ranks %s): %lu requests", a, l->nbelow,
                        l->nbelow == 1 ? "" : "s", ranks, l->requests);
        else
            mg_log_info("hang: agent %d (ranks %s): %lu requests", a, ranks, l->requests);
        if (l->fd >= 0 && agent_proto_frame_begin(&h->buf, AGENT_PROTO_MSG_BYE) == 0) {
            agent_proto_frame_finish(&h->buf);
            agent_proto_send(l->fd, &h->buf);
            close(l->fd);
        }
        free(l->ranks);
    }
    free(h->published);
    for (int j = 0; j < h->njobs; j++) {
        int done = 0;
        job_wait(h->jobs[j], 2000, &done);
        job_destroy(h->jobs[j]);
    }
    if (h->listen_fd >= 0)
        close(h->listen_fd);
    agent_proto_buf_free(&h->buf);
    free(h->readings);
    free(h->fresh);
    free(h->lost_below);
    free(h->round_ranks);
    free(h->round_out);
    free(h->asks);
    for (int g = 0; g < h->nrelays; g++)
        waitpid(h->relays[g], NULL, 0); /* each ends once the front said bye or went away */
    free_rank_arrays(h);
    free(h);
}
