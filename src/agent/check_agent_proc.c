/* An agent process streaming its ranks' records to the detector (check_agent_proc.h). */
#include "check_agent_proc.h"

#include "agent_stage.h"
#include "check_agent.h"
#include "observe_ranks.h"
#include "mg_array.h"
#include "mg_clock.h"
#include "mg_env.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "rank_scan.h"
#include "record_stream.h"
#include "tbon_leaf.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct agent_out {
    int fd;
    uint8_t *buf;
    size_t len, cap;
    int failed, world_sent;
    const check_agent *agent;
    job_session *node; /* a node agent's view of its ranks, else NULL */
    double looked_at;  /* a node agent: when it last looked whether its ranks are all gone */
    double sent_at;    /* when bytes last went to the detector */
    /* under a leaf of its node (check_agent_proc_params.leaves): the leaf's process (0 until
     * started) and its share, the n_leaf ranks of this node (ascending), whichever they are */
    int leaf_pid;
    int32_t *leaf_ranks, n_leaf;
    int hello_said;
} agent_out;

/* Makes room for n more bytes (the buffer is flushed after each poll). */
static uint8_t *room(agent_out *o, size_t n)
{
    if (mg_array_reserve((void **)&o->buf, &o->cap, o->len + n, 1) != MG_ERROR_OK) {
        o->failed = 1;
        return NULL;
    }
    return o->buf + o->len;
}

static void put_pair(agent_out *o, agent_proto_msg_type type, int32_t rank, int32_t value,
                     uint64_t wide)
{
    uint8_t *p = room(o, 32);
    if (p)
        o->len += record_stream_pair(p, 32, type, rank, value, wide);
}

static void on_record(void *ctx, const check_event *ev, const uint8_t *bytes, size_t len)
{
    agent_out *o = ctx;
    if (o->leaf_pid && tbon_leaf_share_place(o->leaf_ranks, o->n_leaf, ev->rank) < 0 &&
        !o->failed) {
        char host[RECORD_STREAM_NODE_NAME] = "";
        gethostname(host, sizeof host - 1);
        mg_log_error(
            "check agent on %s: rank %d runs on this node but was found after its leaf "
            "started with the node's %d ranks from %d on: the launcher did not say how many "
            "ranks the node holds (%s, %s, %s)",
            host, ev->rank, o->n_leaf, o->leaf_ranks[0], MG_ENV_OMPI_LOCAL_SIZE,
            MG_ENV_HYDRA_LOCAL_SIZE, MG_ENV_SLURM_STEP_TASKS_PER_NODE);
        o->failed = 1;
        return;
    }
    if (!o->world_sent) {
        check_agent_stats st;
        check_agent_stats_get(o->agent, &st);
        put_pair(o, AGENT_PROTO_MSG_WORLD, -1, st.world_size, 0);
        o->world_sent = 1;
    }
    uint8_t *p = room(o, len + AGENT_PROTO_FRAME_HEADER);
    if (p)
        o->len += record_stream_frame(p, len + AGENT_PROTO_FRAME_HEADER, AGENT_PROTO_MSG_RECORD,
                                      bytes, (uint32_t)len);
}

static void on_site(void *ctx, int rank, uint64_t addr, const site_resolver_info *site)
{
    agent_out *o = ctx;
    uint8_t *p = room(o, 2100);
    if (p)
        o->len += record_stream_site(p, 2100, rank, addr, site->function, site->file, site->line,
                                     site->line_is_procedure ? RECORD_STREAM_SITE_PROCEDURE_LINE
                                                             : 0);
}

static void put_verdict(agent_out *o, const record_stream_verdict *v)
{
    uint8_t *p = room(o, AGENT_PROTO_FRAME_HEADER + 16 + RECORD_STREAM_DETAIL_MAX);
    if (p)
        o->len += record_stream_observe(p, AGENT_PROTO_FRAME_HEADER + 16 + RECORD_STREAM_DETAIL_MAX,
                                        v);
}

/* A share agent's ranks are judged by the front, which finds them in /proc; a short job's ranks
 * can come and go between its scans, so the end of each rank's stream names the rank's process:
 * every rank a stream reported is a rank the front found. */
static void on_end(void *ctx, int rank, int end, uint64_t lost)
{
    agent_out *o = ctx;
    put_pair(o, AGENT_PROTO_MSG_END, rank, end, lost);
    if (o->node)
        return;
    check_agent_stats st;
    check_agent_stats_get(o->agent, &st);
    record_stream_verdict v = {.rank = rank,
                               .pid = check_agent_pid(o->agent, rank),
                               .world = st.world_size,
                               .cause = RANK_OBSERVE_OK};
    put_verdict(o, &v);
}

/* A node agent's ranks publish once their ring is attached here (observe_ranks.h). */
static int ring_attached(void *ctx, int rank)
{
    const agent_out *o = ctx;
    return check_agent_pid(o->agent, rank) != 0;
}

static void send_verdict(void *ctx, int rank, int pid, rank_observe_cause cause, const char *detail)
{
    agent_out *o = ctx;
    record_stream_verdict v = {.rank = rank, .pid = pid, .world = o->node->nranks, .cause = cause};
    snprintf(v.detail, sizeof v.detail, "%s", detail);
    put_verdict(o, &v);
}

/* A node agent is done once every rank found on its node is gone (a zombie too: a node's init
 * may never reap it) and its stream, if it had one, ended: the verdicts are then final. */
static int node_done(const agent_out *o)
{
    const job_session *js = o->node;
    if (js->found == 0)
        return 0;
    for (int r = 0; r < js->nranks; r++) {
        int pid = js->ranks[r].pid;
        if (pid && (!mg_process_state_gone(rank_scan_process_state(pid)) ||
                    (check_agent_pid(o->agent, r) && !check_agent_ended(o->agent, r))))
            return 0;
    }
    return 1;
}

/* Sends each owned rank's blocked seq when it changed since the last one sent. */
static int send_states(agent_out *o, const check_agent_proc_params *p, int world, uint64_t **sent)
{
    if (world && !*sent && !(*sent = calloc((size_t)world, sizeof **sent)))
        return MG_ERROR_ENOMEM;
    int first, end;
    check_agent_share_range(world, p->share, p->shares, &first, &end);
    for (int r = first; *sent && r < end; r++) {
        uint64_t seq = check_agent_blocked_seq(o->agent, r);
        if (seq != (*sent)[r]) {
            put_pair(o, AGENT_PROTO_MSG_STATE, r, 0, seq);
            (*sent)[r] = seq;
        }
    }
    return MG_ERROR_OK;
}

/* Sends what was put, or that the agent is alive when nothing was for AGENT_PROTO_ALIVE_EVERY_S:
 * the detector takes a silent stream for a lost node (agent_proto.h). */
static int flush(agent_out *o)
{
    double now = mg_clock_seconds();
    uint8_t *alive = o->len == 0 && now - o->sent_at >= AGENT_PROTO_ALIVE_EVERY_S
                         ? room(o, AGENT_PROTO_FRAME_HEADER)
                         : NULL;
    if (alive) {
        agent_proto_frame_header_put(alive, AGENT_PROTO_MSG_ALIVE, 0);
        o->len = AGENT_PROTO_FRAME_HEADER;
    }
    if (o->len > 0)
        o->sent_at = now;
    int rc = agent_proto_send_bytes(o->fd, o->buf, o->len);
    o->len = 0;
    return rc;
}

static int connect_to(const char *address)
{
    char host[64];
    const char *colon = strrchr(address, ':');
    if (!colon || (size_t)(colon - address) >= sizeof host)
        return -1;
    memcpy(host, address, (size_t)(colon - address));
    host[colon - address] = '\0';
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(colon + 1))};
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || inet_pton(AF_INET, host, &sa.sin_addr) != 1 ||
        connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

/* The detector closed its end (or vanished): nothing more to do. */
static int detector_gone(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    char c;
    return poll(&p, 1, 0) > 0 && recv(fd, &c, 1, MSG_DONTWAIT) <= 0;
}

/* The HELLO naming this agent's share (of a leaf's agent: its leaf's, the node's ranks), node,
 * and how many ranks the launcher started on it (0: not known). */
static void say_hello(agent_out *o, int share, int shares, int on_node)
{
    record_stream_hello_fields h = {.share = (uint32_t)share,
                                    .shares = (uint32_t)shares,
                                    .node_ranks = (uint32_t)on_node,
                                    .ranks = o->leaf_ranks,
                                    .n = (uint32_t)o->n_leaf};
    gethostname(h.node, sizeof h.node - 1);
    size_t size = RECORD_STREAM_HELLO_SIZE + (o->n_leaf ? 4 + 4 * (size_t)o->n_leaf : 0);
    uint8_t *bytes = room(o, size);
    if (bytes)
        o->len += record_stream_hello(bytes, size, &h);
    o->hello_said = 1;
}

/* The first bytes to the detector: the AUTH frame with the run's secret, then, from an agent of a
 * share of this machine's ranks, the HELLO (a node agent's waits for its first rank, which tells
 * how many its node holds: observe_node, start_leaf). */
static void say_auth(agent_out *o, const check_agent_proc_params *p)
{
    uint8_t *bytes = room(o, AGENT_PROTO_AUTH_SIZE);
    if (bytes) {
        agent_proto_auth_put(bytes, p->secret);
        o->len += AGENT_PROTO_AUTH_SIZE;
    }
    if (!o->node)
        say_hello(o, p->share, p->shares, 0);
}

/* How many ranks the launcher put on this node, as it told the rank of process pid; 0: not told.
 * srun says it only as the step's layout, of which the rank's node, found by its name, is one
 * entry. */
static int node_ranks(int pid)
{
    static const char *const names[] = {MG_ENV_OMPI_LOCAL_SIZE, MG_ENV_HYDRA_LOCAL_SIZE};
    char value[4096], nodes[4096], node[256];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (rank_scan_environ_get("/proc", pid, names[i], value, sizeof value) == MG_ERROR_OK &&
            atoi(value) > 0)
            return atoi(value);
    int tasks = 0, index;
    /* a value cut at the buffer's end could still parse, with a wrong count */
    if (rank_scan_environ_get("/proc", pid, MG_ENV_SLURMD_NODENAME, node, sizeof node) !=
            MG_ERROR_OK ||
        rank_scan_environ_get("/proc", pid, MG_ENV_SLURM_STEP_NODELIST, nodes, sizeof nodes) !=
            MG_ERROR_OK ||
        rank_scan_environ_get("/proc", pid, MG_ENV_SLURM_STEP_TASKS_PER_NODE, value,
                              sizeof value) != MG_ERROR_OK ||
        strlen(value) == sizeof value - 1 || strlen(nodes) == sizeof nodes - 1 ||
        mg_env_slurm_node_index(nodes, node, &index) != MG_ERROR_OK ||
        mg_env_slurm_node_tasks(value, index, &tasks) != MG_ERROR_OK)
        return 0;
    return tasks;
}

/* Once the node's ranks are found (as many as the launcher says the node holds; without that
 * figure, those found by then): they are this node's leaf's share, whichever ranks they are (a
 * block, or round robin: --map-by node), said in the HELLO on the detector's connection, which
 * then passes to a leaf process (agent_stage_run, forked here) that this agent streams to over a
 * socketpair. The leaf matches its node's calls and passes up the rest, the frames it does not
 * match unchanged; its stream is the detector's from its AUTH frame on. */
static int start_leaf(agent_out *o, const check_agent_proc_params *p)
{
    const job_session *js = o->node;
    int32_t found = 0, expected = 0;
    for (int r = 0; r < js->nranks; r++)
        if (js->ranks[r].pid) {
            found++;
            expected = expected ? expected : node_ranks(js->ranks[r].pid);
        }
    if (found == 0 || found < expected)
        return MG_ERROR_OK;
    if (!(o->leaf_ranks = malloc((size_t)found * sizeof *o->leaf_ranks)))
        return MG_ERROR_ENOMEM;
    for (int r = 0; r < js->nranks; r++)
        if (js->ranks[r].pid)
            o->leaf_ranks[o->n_leaf++] = r;
    /* a label for the messages: the node's lowest rank */
    int k = o->leaf_ranks[0];
    size_t cap = 12 * (size_t)found + 1;
    char *ranks = malloc(cap);
    if (!ranks || !agent_stage_format_ranks(o->leaf_ranks, o->n_leaf, ranks, cap)) {
        free(ranks);
        return MG_ERROR_ENOMEM;
    }
    say_hello(o, k, p->leaves, expected);
    int pair[2];
    if (flush(o) != MG_ERROR_OK || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        free(ranks);
        return MG_ERROR_ESYS;
    }
    pid_t pid = fork();
    if (pid == 0) {
        char input[16], output[32];
        close(pair[0]);
        snprintf(input, sizeof input, "%d", pair[1]);
        snprintf(output, sizeof output, "%d/%d", o->fd, o->fd);
        _exit(agent_stage_run(ranks, k, p->leaves, input, output, 1));
    }
    close(pair[1]);
    if (pid < 0) {
        close(pair[0]);
        free(ranks);
        return MG_ERROR_ESYS;
    }
    close(o->fd);
    o->fd = pair[0];
    o->leaf_pid = (int)pid;
    mg_log_info("check agent: this node's leaf streams its %d ranks %s", o->n_leaf, ranks);
    free(ranks);
    return MG_ERROR_OK;
}

/* A node agent looks for its node's ranks and judges them; its verdicts join the stream. Whether
 * they are all gone is read from /proc as often as the observer looks, not at every drain. */
static int observe_node(agent_out *o, observe_ranks *observer, const check_agent_proc_params *p)
{
    job_session *js = o->node;
    job_session_discover(js);
    if (p->leaves && !o->leaf_pid && start_leaf(o, p) != MG_ERROR_OK)
        return -1;
    /* before its first verdict: the detector learns how many ranks are still to come from agents
     * that have not joined yet, however late they are */
    for (int r = 0; !p->leaves && !o->hello_said && r < js->nranks; r++)
        if (js->ranks[r].pid)
            say_hello(o, p->share, p->shares, node_ranks(js->ranks[r].pid));
    double now = mg_clock_seconds();
    int done = now - o->looked_at >= OBSERVE_RANKS_PERIOD_S && node_done(o);
    if (now - o->looked_at >= OBSERVE_RANKS_PERIOD_S)
        o->looked_at = now;
    observe_ranks_update(observer, done);
    return done;
}

/* Drains this agent's rings to the detector until its ranks have all ended (or, as the one agent
 * of a node, until the node's observation is done); 0, or MG_EXIT_SOFTWARE when the detector or a
 * ring failed. */
static int stream(agent_out *o, check_agent *a, observe_ranks *observer,
                  const check_agent_proc_params *p)
{
    const check_agent_sink sink = {o, on_record, on_site, on_end};
    uint64_t *sent_state = NULL;
    int status = 0;
    for (;;) {
        size_t n;
        int done = o->node ? observe_node(o, observer, p) : 0;
        /* a leaf's agent drains nothing before its leaf knows its share */
        int draining = !p->leaves || o->leaf_pid;
        n = 0;
        if (done < 0 || (draining && check_agent_poll(a, &sink, 65536, &n) != MG_ERROR_OK) ||
            o->failed) {
            status = MG_EXIT_SOFTWARE;
            break;
        }
        check_agent_stats st;
        check_agent_stats_get(a, &st);
        if (send_states(o, p, st.world_size, &sent_state) != MG_ERROR_OK ||
            flush(o) != MG_ERROR_OK || detector_gone(o->fd)) {
            status = MG_EXIT_SOFTWARE;
            break;
        }
        int first, end;
        check_agent_share_range(st.world_size, p->share, p->shares, &first, &end);
        if (done || (!o->node && st.world_size && st.ended == end - first))
            break;
        if (n == 0) {
            struct timespec pause = {0, 5000000};
            nanosleep(&pause, NULL);
        }
    }
    /* every rank's stream ended: the stream ends cleanly (a leaf takes one without DONE for a lost
     * agent, tbon_stage.h) */
    uint8_t *done = status ? NULL : room(o, AGENT_PROTO_FRAME_HEADER);
    if (done) {
        agent_proto_frame_header_put(done, AGENT_PROTO_MSG_DONE, 0);
        o->len += AGENT_PROTO_FRAME_HEADER;
        status = flush(o) == MG_ERROR_OK ? 0 : MG_EXIT_SOFTWARE;
    }
    free(sent_state);
    return status;
}

int check_agent_proc_run(const check_agent_proc_params *p)
{
    check_agent *a;
    if (check_agent_create(p->token, p->share, p->shares, &a) != MG_ERROR_OK) {
        mg_log_error("check agent: bad share %d/%d or token", p->share, p->shares);
        return MG_EXIT_SOFTWARE;
    }
    job_session node = {.tool = "check", .flavor = p->flavor};
    agent_out o = {.fd = p->address ? connect_to(p->address) : p->output,
                   .agent = a,
                   .node = p->library ? &node : NULL};
    observe_ranks *observer = NULL;
    if (o.node) {
        snprintf(node.token, sizeof node.token, "%s", p->token);
        snprintf(node.library, sizeof node.library, "%s", p->library);
        node.selector.token = node.token;
        if ((observer = observe_ranks_create(&node, ring_attached, &o)))
            observe_ranks_on_verdict(observer, send_verdict, &o);
    }
    int status = MG_EXIT_SOFTWARE;
    if (o.fd < 0 || (o.node && !observer)) {
        mg_log_error(o.fd < 0 ? "check agent: cannot connect to the detector at %s"
                              : "check agent: out of memory (detector at %s)",
                     p->address ? p->address : "its leaf");
    } else {
        say_auth(&o, p);
        /* at once: the detector closes a connection whose AUTH frame is late
         * (AGENT_PROTO_AUTH_WAIT_MS), and finding the node's ranks may take a while */
        status = flush(&o) == MG_ERROR_OK ? stream(&o, a, observer, p) : MG_EXIT_SOFTWARE;
    }
    observe_ranks_destroy(observer);
    free(node.ranks);
    free(o.leaf_ranks);
    free(o.buf);
    if (o.fd >= 0)
        close(o.fd);
    /* the leaf ends once the detector has nothing more to tell it (NO_MORE) or went away */
    int leaf_status = 0;
    if (o.leaf_pid && waitpid(o.leaf_pid, &leaf_status, 0) == o.leaf_pid && !status)
        status = WIFEXITED(leaf_status) ? WEXITSTATUS(leaf_status) : MG_EXIT_SOFTWARE;
    check_agent_destroy(a);
    return status;
}
