/* The detector's side of the agents' TCP streams (check_remote.h). */
#include "check_remote.h"

#include "mg_clock.h"
#include "mg_error.h"
#include "mg_log.h"
#include "record_decoder.h"
#include "record_stream.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* A joined agent's stream silent this long is lost: it says it is alive every
 * AGENT_PROTO_ALIVE_EVERY_S, and an agent on a node at load 70 is held back a few seconds at worst.
 */
enum { MAX_AGENTS = CHECK_REMOTE_MAX_AGENTS, SILENT_LOST_S = 15 };

typedef struct remote_conn {
    int fd;          /* -1 once closed */
    int joined;      /* its secret was right: one of the run's agents; its number from 1 */
    double heard_at; /* when its last bytes came (once joined) */
    /* when a connection this process accepted is closed if its AUTH frame has not come whole
     * (0: a leaf this run started, over a socketpair no one else can reach) */
    double auth_by;
    char node[RECORD_STREAM_NODE_NAME];
    check_remote_end end; /* its HELLO's share, and whether DONE came */
    int32_t node_ranks;   /* its HELLO's count of its node's ranks (0: not said, or no HELLO) */
    /* a leaf that said ENDED waits for the root's last answers: 1 + the answers it had read
     * then (0: not said), and the answers written to it; it ended after its last answer only
     * when it had read them all (tbon_stage_tell_children) */
    uint64_t ended_after, answered;
    /* its share, the ranks a leaf's summaries stand for: as its HELLO named them, or its HELLO's
     * block of the world once the world size is known; told to the sink once (announced) */
    int32_t *share, n_share;
    int announced;
    agent_proto_reader reader;
    agent_proto_buf unsent; /* answers its socket took no room for yet, written as it takes them */
} remote_conn;

struct check_remote {
    int listen_fd, expected, joined, closed, nconns;
    int world;        /* as the WORLD frames say, 0 before */
    int said_no_more; /* the leaves heard NO_MORE */
    double joined_at; /* when the latest agent joined */
    remote_conn conns[MAX_AGENTS];
    record_decoder decoder;
    uint8_t secret[AGENT_PROTO_SECRET_BYTES];
};

int check_remote_create(int listen_fd, int agents, const uint8_t secret[AGENT_PROTO_SECRET_BYTES],
                        check_remote **out)
{
    check_remote *r = agents < 0 || agents > MAX_AGENTS ? NULL : calloc(1, sizeof *r);
    if (!r) {
        close(listen_fd);
        return agents < 0 || agents > MAX_AGENTS ? MG_ERROR_EINVAL : MG_ERROR_ENOMEM;
    }
    r->listen_fd = listen_fd;
    r->expected = agents;
    memcpy(r->secret, secret, AGENT_PROTO_SECRET_BYTES);
    *out = r;
    return MG_ERROR_OK;
}

/* The first place of conns that is free (a joined agent's stays its own after it closed), or
 * MAX_AGENTS when none is. */
static int free_place(const check_remote *r)
{
    int slot = 0;
    while (slot < r->nconns && (r->conns[slot].fd >= 0 || r->conns[slot].joined))
        slot++;
    return slot;
}

/* Whether another agent may still join. */
static int accepting(const check_remote *r)
{
    return r->joined < (r->expected ? r->expected : MAX_AGENTS);
}

/* Makes c's share (remote_conn.share) from its HELLO's block when it named no ranks. Errors:
 * MG_ERROR_EFORMAT (no HELLO share or world size yet), MG_ERROR_ENOMEM. */
static int conn_share(const check_remote *r, remote_conn *c)
{
    if (c->share)
        return MG_ERROR_OK;
    if (!c->end.shares || r->world <= 0)
        return MG_ERROR_EFORMAT;
    int first, end;
    check_agent_share_range(r->world, c->end.share, c->end.shares, &first, &end);
    if (end <= first || !(c->share = malloc((size_t)(end - first) * sizeof *c->share)))
        return end <= first ? MG_ERROR_EFORMAT : MG_ERROR_ENOMEM;
    for (int k = first; k < end; k++)
        c->share[c->n_share++] = k;
    return MG_ERROR_OK;
}

/* Tells the sink c's share once it is known (its HELLO came, and the world size). */
static void announce(check_remote *r, remote_conn *c, const check_remote_sink *sink)
{
    if (c->announced || c->fd < 0 || r->world <= 0 || conn_share(r, c) != MG_ERROR_OK)
        return;
    c->announced = 1;
    if (sink->share)
        sink->share(sink->base.ctx, c->joined - 1, c->node, c->share, c->n_share);
}

/* The job's size, once an agent tells it: the shares waiting for it are told. */
static void learn_world(check_remote *r, int world, const check_remote_sink *sink)
{
    r->world = world;
    sink->world(sink->base.ctx, world);
    for (int i = 0; i < r->nconns; i++)
        announce(r, &r->conns[i], sink);
}

static void close_conn(check_remote *r, remote_conn *c, const check_remote_sink *sink)
{
    close(c->fd);
    c->fd = -1;
    agent_proto_reader_free(&c->reader);
    agent_proto_buf_free(&c->unsent);
    /* a leaf is known by its share from its start: lost before its HELLO, it is lost all the same
     */
    if (c->joined || c->end.shares) {
        if (!c->joined)
            c->joined = ++r->joined;
        r->closed++;
        c->end.ranks = conn_share(r, c) == MG_ERROR_OK ? c->share : NULL;
        c->end.n_ranks = c->end.ranks ? c->n_share : 0;
        if (sink->agent_closed)
            sink->agent_closed(sink->base.ctx, c->joined - 1, c->node, &c->end);
    }
    free(c->share);
    c->share = NULL;
    c->end.ranks = NULL;
    c->n_share = c->end.n_ranks = 0;
}

static int record_frame(check_remote *r, const agent_proto_frame *f, const check_remote_sink *sink)
{
    check_event ev;
    int rc = record_decoder_decode(&r->decoder, f->payload, f->length, &ev);
    if (rc == MG_ERROR_OK)
        sink->base.record(sink->base.ctx, &ev, f->payload, f->length);
    return rc == MG_ERROR_ENOMEM ? rc : rc != MG_ERROR_OK ? MG_ERROR_EFORMAT : MG_ERROR_OK;
}

static int summary_frame(check_remote *r, remote_conn *c, const agent_proto_frame *f,
                         const check_remote_sink *sink)
{
    int32_t ranks;
    const uint8_t *record;
    size_t len;
    check_event ev;
    int rc = record_stream_parse_summary(f, &ranks, &record, &len);
    rc = rc ? rc : conn_share(r, c);
    rc = rc || ranks == c->n_share ? rc : MG_ERROR_EFORMAT;
    rc = rc ? rc : record_decoder_decode(&r->decoder, record, len, &ev);
    if (rc == MG_ERROR_OK && sink->summary)
        sink->summary(sink->base.ctx, &ev, c->share, c->n_share);
    return rc == MG_ERROR_ENOMEM ? rc : rc != MG_ERROR_OK ? MG_ERROR_EFORMAT : MG_ERROR_OK;
}

/* Dispatches one frame of c: MG_ERROR_OK, MG_ERROR_EFORMAT (malformed payload) or MG_ERROR_ENOMEM.
 */
static int dispatch(check_remote *r, remote_conn *c, const agent_proto_frame *f,
                    const check_remote_sink *sink)
{
    int32_t rank, value, line;
    record_stream_hello_fields hello;
    uint64_t wide;
    uint8_t flags;
    char function[1024], file[1024];
    record_stream_verdict verdict;
    switch (f->type) {
    case AGENT_PROTO_MSG_HELLO:
        /* one HELLO per stream: a second could change a share the root was told */
        if (c->announced || c->share || record_stream_parse_hello(f, &hello, 1))
            return MG_ERROR_EFORMAT;
        memcpy(c->node, hello.node, sizeof c->node);
        c->end.share = (int)hello.share;
        c->end.shares = (int)hello.shares;
        c->node_ranks = (int32_t)hello.node_ranks;
        c->share = hello.ranks;
        c->n_share = (int32_t)hello.n;
        if (hello.n)
            mg_log_info("check: the stream from %s joined with its node's ranks (%u, the first %d)",
                        c->node, hello.n, hello.ranks[0]);
        else
            mg_log_info("check: the stream from %s joined as share %u of %u (the launcher's count "
                        "of its node's ranks: %u; 0: not said)",
                        c->node, hello.share, hello.shares, hello.node_ranks);
        announce(r, c, sink);
        return MG_ERROR_OK;
    case AGENT_PROTO_MSG_DONE:
        c->end.done = 1;
        return MG_ERROR_OK;
    case AGENT_PROTO_MSG_ENDED:
        if (record_stream_parse_pair(f, &rank, &value, &wide))
            return MG_ERROR_EFORMAT;
        c->ended_after = wide + 1;
        return MG_ERROR_OK;
    case AGENT_PROTO_MSG_SUMMARY:
        return summary_frame(r, c, f, sink);
    case AGENT_PROTO_MSG_OBSERVE:
        if (record_stream_parse_observe(f, &verdict))
            return MG_ERROR_EFORMAT;
        /* ranks still before MPI_Init send no WORLD, but their agent knows the job's size from
         * the launcher: the leaves' shares need not wait for a rank to publish */
        if (!r->world && verdict.world > 0)
            learn_world(r, verdict.world, sink);
        if (sink->observe)
            sink->observe(sink->base.ctx, c->joined - 1, c->node, &verdict);
        return MG_ERROR_OK;
    case AGENT_PROTO_MSG_RECORD:
        return record_frame(r, f, sink);
    case AGENT_PROTO_MSG_ALIVE:
        return MG_ERROR_OK;
    case AGENT_PROTO_MSG_SITE:
        if (record_stream_parse_site(f, &rank, &wide, function, sizeof function, file, sizeof file,
                                     &line, &flags))
            return MG_ERROR_EFORMAT;
        site_resolver_info site = {.function = function[0] ? function : NULL,
                                   .file = file[0] ? file : NULL,
                                   .line = line,
                                   .line_is_procedure = flags & RECORD_STREAM_SITE_PROCEDURE_LINE};
        sink->base.site(sink->base.ctx, rank, wide, &site);
        return MG_ERROR_OK;
    default:
        if (record_stream_parse_pair(f, &rank, &value, &wide))
            return MG_ERROR_EFORMAT;
        if (f->type == AGENT_PROTO_MSG_END)
            sink->base.rank_end(sink->base.ctx, rank, value, wide);
        else if (f->type == AGENT_PROTO_MSG_STATE)
            sink->state(sink->base.ctx, rank, wide);
        else
            learn_world(r, value, sink);
        return MG_ERROR_OK;
    }
}

static int read_conn(check_remote *r, remote_conn *c, const check_remote_sink *sink,
                     size_t *records)
{
    uint8_t buf[65536];
    ssize_t n = recv(c->fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return MG_ERROR_OK;
    if (n <= 0) {
        if (agent_proto_reader_partial(&c->reader))
            mg_log_warn("check: an agent's stream ended in the middle of a frame (truncated)");
        close_conn(r, c, sink);
        return MG_ERROR_OK;
    }
    c->heard_at = mg_clock_seconds();
    int rc = agent_proto_reader_push(&c->reader, buf, (size_t)n);
    if (rc == MG_ERROR_OK && !c->joined) {
        /* Nothing of a stream is read before its secret matched. */
        rc = accepting(r) ? agent_proto_reader_auth(&c->reader, r->secret) : MG_ERROR_EPERM;
        if (rc == MG_ERROR_EPERM) {
            char peer[80];
            agent_proto_peer_name(c->fd, peer, sizeof peer);
            mg_log_warn("check: a connection from %s without this run's agent secret was refused",
                        peer);
            close_conn(r, c, sink);
            return MG_ERROR_OK;
        }
        if (rc == 0)
            return MG_ERROR_OK;
        c->joined = ++r->joined;
        r->joined_at = mg_clock_seconds();
        rc = MG_ERROR_OK;
    }
    agent_proto_frame f;
    char err[256];
    while (rc == MG_ERROR_OK &&
           (rc = agent_proto_reader_next(&c->reader, &f, err, sizeof err)) == 1) {
        rc = dispatch(r, c, &f, sink);
        if (rc == MG_ERROR_EFORMAT)
            snprintf(err, sizeof err, "a malformed frame of type %u", f.type);
        *records += rc == MG_ERROR_OK && f.type == AGENT_PROTO_MSG_RECORD;
    }
    if (rc == MG_ERROR_EFORMAT || rc == MG_ERROR_EVERSION) {
        mg_log_warn("check: closing an agent's stream: %s", err);
        close_conn(r, c, sink);
        return MG_ERROR_OK;
    }
    return rc < 0 ? rc : MG_ERROR_OK;
}

/* Closes a connection whose AUTH frame did not come whole by its deadline: a stranger would hold
 * its place, and one of the 256, for as long as it keeps the connection open. */
static void close_unauthenticated(check_remote *r, remote_conn *c, const check_remote_sink *sink)
{
    char peer[80];
    agent_proto_peer_name(c->fd, peer, sizeof peer);
    mg_log_warn("check: closing the connection from %s: it sent %zu of the %u bytes of this run's "
                "agent secret (the AUTH frame) in %.0f s",
                peer, c->reader.len - c->reader.pos, AGENT_PROTO_AUTH_SIZE,
                AGENT_PROTO_AUTH_WAIT_MS / 1000.0);
    close_conn(r, c, sink);
}

/* Closes the streams of joined agents silent past SILENT_LOST_S, as lost, and the connections
 * past their AUTH deadline. */
static void close_overdue(check_remote *r, const check_remote_sink *sink)
{
    double now = mg_clock_seconds();
    for (int i = 0; i < r->nconns; i++) {
        remote_conn *c = &r->conns[i];
        if (c->fd >= 0 && !c->joined && c->auth_by > 0 && now >= c->auth_by)
            close_unauthenticated(r, c, sink);
        if (c->fd < 0 || !c->joined || now - c->heard_at < SILENT_LOST_S)
            continue;
        mg_log_warn(
            "check: the agent on node %s sent nothing for %d s: its node or its link is down",
            c->node[0] ? c->node : "?", SILENT_LOST_S);
        close_conn(r, c, sink);
    }
}

/* Writes what c's socket takes of its unsent answers: the root never waits on a leaf, which may
 * be blocked writing its records to the root. A leaf gone is closed by its reader, which reports
 * its ranks lost. */
static void send_unsent(remote_conn *c)
{
    if (c->unsent.len && agent_proto_send_queued(c->fd, &c->unsent) != MG_ERROR_OK) {
        mg_log_warn(
            "check: the detector leaf of share %d stopped taking its answers: its stream is "
            "closed as it ends",
            c->end.share);
        c->unsent.len = 0;
    }
}

/* Queues the frame to c behind its unsent answers, whole, and writes what its socket takes. */
static void tell(remote_conn *c, const uint8_t *frame, size_t len)
{
    if (agent_proto_put_bytes(&c->unsent, frame, len) != MG_ERROR_OK) {
        mg_log_warn("check: no memory for an answer to the detector leaf of share %d: it is closed",
                    c->end.share);
        shutdown(c->fd, SHUT_RDWR); /* its reader sees the end and reports its ranks lost */
        return;
    }
    send_unsent(c);
}

int check_remote_poll(check_remote *r, const check_remote_sink *sink, int timeout_ms,
                      size_t *records)
{
    *records = 0;
    close_overdue(r, sink);
    struct pollfd fds[MAX_AGENTS + 1];
    int n = 0;
    /* with every place taken, a connection waits in the listener's backlog until one is free */
    if (accepting(r) && free_place(r) < MAX_AGENTS)
        fds[n++] = (struct pollfd){.fd = r->listen_fd, .events = POLLIN};
    for (int i = 0; i < r->nconns; i++)
        if (r->conns[i].fd >= 0)
            fds[n++] = (struct pollfd){.fd = r->conns[i].fd,
                                       .events = POLLIN | (r->conns[i].unsent.len ? POLLOUT : 0)};
    if (n == 0 || poll(fds, (nfds_t)n, timeout_ms) <= 0)
        return MG_ERROR_OK;
    for (int i = 0; i < r->nconns; i++)
        if (r->conns[i].fd >= 0)
            send_unsent(&r->conns[i]);
    /* A refused connection's place is taken again. */
    for (int fd; accepting(r) && free_place(r) < MAX_AGENTS &&
                 (fd = accept4(r->listen_fd, NULL, NULL, SOCK_CLOEXEC)) >= 0;)
        check_remote_adopt(r, fd);
    for (int i = 0; i < r->nconns; i++) {
        if (r->conns[i].fd < 0)
            continue;
        int rc = read_conn(r, &r->conns[i], sink, records);
        if (rc != MG_ERROR_OK)
            return rc;
    }
    return MG_ERROR_OK;
}

/* Takes fd into a free place, with its share (0 of 0: none known) and its AUTH deadline (0:
 * none). Errors: MG_ERROR_ERANGE (no free place; fd is closed). */
static int adopt(check_remote *r, int fd, int share, int shares, double auth_by)
{
    int slot = free_place(r);
    if (slot == MAX_AGENTS) {
        close(fd);
        return MG_ERROR_ERANGE;
    }
    r->conns[slot] = (remote_conn){
        .fd = fd, .auth_by = auth_by, .end = {.share = share, .shares = shares}};
    agent_proto_reader_init(&r->conns[slot].reader);
    r->nconns += slot == r->nconns;
    return MG_ERROR_OK;
}

int check_remote_adopt_leaf(check_remote *r, int fd, int share, int shares)
{
    return adopt(r, fd, share, shares, 0);
}

int check_remote_adopt(check_remote *r, int fd)
{
    return adopt(r, fd, 0, 0, mg_clock_seconds() + AGENT_PROTO_AUTH_WAIT_MS / 1000.0);
}

/* Once every leaf said ENDED or closed, after their last answers: NO_MORE, once. */
static void tell_no_more(check_remote *r)
{
    int all = r->expected && r->joined == r->expected && !r->said_no_more;
    for (int i = 0; all && i < r->nconns; i++)
        all = r->conns[i].fd < 0 || !r->conns[i].joined ||
              r->conns[i].ended_after == r->conns[i].answered + 1;
    if (!all)
        return;
    uint8_t frame[AGENT_PROTO_FRAME_HEADER];
    agent_proto_frame_header_put(frame, AGENT_PROTO_MSG_NO_MORE, 0);
    for (int i = 0; i < r->nconns; i++)
        if (r->conns[i].fd >= 0 && r->conns[i].joined)
            tell(&r->conns[i], frame, sizeof frame);
    r->said_no_more = 1;
}

void check_remote_answer(check_remote *r, const tbon_leaf_call *calls, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        for (int i = 0; i < r->nconns; i++) {
            remote_conn *c = &r->conns[i];
            if (c->fd < 0 || !c->joined || !c->share ||
                tbon_leaf_share_place(c->share, c->n_share, calls[k].rank) < 0)
                continue;
            uint8_t frame[AGENT_PROTO_FRAME_HEADER + 16];
            size_t len = record_stream_pair(frame, sizeof frame, AGENT_PROTO_MSG_COMPLETED,
                                            calls[k].rank, 0, calls[k].exit_seq);
            tell(c, frame, len);
            c->answered++;
            break;
        }
    }
    tell_no_more(r);
}

void check_remote_release(check_remote *r)
{
    /* After NO_MORE each leaf sends up all it holds and ends: one that ended since has closed its
     * socket, and a write to it would fail as if it had stopped reading its answers. */
    if (!r || r->said_no_more)
        return;
    uint8_t frame[AGENT_PROTO_FRAME_HEADER];
    agent_proto_frame_header_put(frame, AGENT_PROTO_MSG_RELEASE, 0);
    for (int i = 0; i < r->nconns; i++)
        if (r->conns[i].fd >= 0 && r->conns[i].joined && r->conns[i].end.shares)
            tell(&r->conns[i], frame, sizeof frame);
}

int check_remote_done(const check_remote *r)
{
    return r->closed == r->joined && (r->expected ? r->joined == r->expected : r->joined > 0);
}

int check_remote_agents(const check_remote *r, rank_observe_agent out[CHECK_REMOTE_MAX_AGENTS])
{
    for (int i = 0; i < r->nconns; i++) {
        const remote_conn *c = &r->conns[i];
        if (c->joined)
            out[c->joined - 1] = (rank_observe_agent){.announced = c->node_ranks,
                                                      .gone = c->fd < 0};
    }
    return r->joined;
}

double check_remote_joined_at(const check_remote *r)
{
    return r->expected && r->joined < r->expected ? 0 : r->joined_at;
}

void check_remote_destroy(check_remote *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->nconns; i++)
        if (r->conns[i].fd >= 0) {
            close(r->conns[i].fd);
            agent_proto_reader_free(&r->conns[i].reader);
            agent_proto_buf_free(&r->conns[i].unsent);
            free(r->conns[i].share);
        }
    if (r->listen_fd >= 0)
        close(r->listen_fd);
    record_decoder_free(&r->decoder);
    free(r);
}
