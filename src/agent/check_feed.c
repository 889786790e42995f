/* The detector fed from the agents of `mpiguard check` (check_feed.h). */
#include "check_feed.h"

#include "agent_stage.h"
#include "event_ring.h"
#include "mg_clock.h"
#include "mg_env.h"
#include "mg_error.h"
#include "mg_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Records drained per poll before the triggers are looked at again. */
#define CHECK_POLL_RECORDS 65536
/* How often the wait for ranks the agents' counts say are still to come is said. */
#define CHECK_FEED_WAITING_EVERY_S 10.0

uint64_t check_feed_now(void)
{
    return (uint64_t)(mg_clock_seconds() * 1e9);
}

static void set_world(check_feed *f, int size)
{
    if (f->world || size <= 0)
        return;
    f->blocked = calloc((size_t)size, sizeof *f->blocked);
    f->captured = calloc((size_t)size, sizeof *f->captured);
    f->ended = calloc((size_t)size, sizeof *f->ended);
    f->rank_records = calloc((size_t)size, sizeof *f->rank_records);
    f->agent_of = calloc((size_t)size, sizeof *f->agent_of);
    /* across nodes the agents, not this node's /proc, tell the session its ranks */
    if (f->across_nodes && !f->job->ranks &&
        (f->job->ranks = calloc((size_t)size, sizeof *f->job->ranks)))
        f->job->nranks = size;
    if (!f->blocked || !f->captured || !f->ended || !f->rank_records || !f->agent_of ||
        (f->across_nodes && f->job->nranks != size))
        f->failed = 1;
    else {
        f->world = size;
        f->world_at = mg_clock_seconds();
    }
    f->too_many_leaves = f->leaves > size;
}

static int ensure_detector(check_feed *f)
{
    if (f->det)
        return MG_ERROR_OK;
    if (f->agent) {
        check_agent_stats st;
        check_agent_stats_get(f->agent, &st);
        set_world(f, st.world_size);
    }
    if (!f->world)
        return MG_ERROR_ESTATE;
    dl_params p;
    dl_params_default(&p);
    p.buffered_standard_sends = f->buffered_sends;
    p.probing = 1;
    p.deciding = f->deciding;
    int rc = f->leaves && !f->answers ? tbon_root_create(f->world, &f->answers) : MG_ERROR_OK;
    return rc ? rc : deadlock_detector_create(&p, f->world, &f->det);
}

/* Counts rank's records seen: the watch's sign of its progress. */
static void note_records(check_feed *f, int rank, uint64_t n)
{
    if (rank >= 0 && rank < f->world) {
        f->captured[rank] = 1;
        f->rank_records[rank] += n;
    }
}

/* Whether the detector is there to be fed (else the run failed); the record's arrival is noted. */
static int feeding(check_feed *f, uint64_t *now)
{
    if (ensure_detector(f) != MG_ERROR_OK) {
        f->failed = 1;
        return 0;
    }
    *now = check_feed_now();
    check_policy_note_record(&f->policy, *now);
    return 1;
}

/* What the detector said of a record (or a leaf's summary of `ranks`): the first refusal is said,
 * all are counted. */
static void fed(check_feed *f, const check_event *ev, int32_t ranks, int rc)
{
    f->broken |= rc != MG_ERROR_OK &&
                 rc != MG_ERROR_ENOENT; /* unknown communicators are skipped calls */
    if (rc == MG_ERROR_OK || f->feed_errors++ > 0)
        return;
    char what[64];
    if (ranks)
        snprintf(what, sizeof what, "%d ranks from %d on: a leaf's summary", ranks, ev->rank);
    else
        snprintf(what, sizeof what, "rank %d: the %s record %llu", ev->rank,
                 ev->kind == CHECK_EVENT_EV_ENTER ? "entry" : "exit", (unsigned long long)ev->seq);
    mg_log_warn(
        "check: %s of %s was not accepted (%s); later rejections are counted in the report", what,
        check_event_func_describe(ev->func) ? check_event_func_describe(ev->func)->name : "?",
        mg_error_string(rc));
}

static void on_record(void *ctx, const check_event *ev, const uint8_t *bytes, size_t len)
{
    (void)bytes, (void)len;
    check_feed *f = ctx;
    uint64_t now;
    if (!feeding(f, &now))
        return;
    note_records(f, ev->rank, 1);
    if (ev->flags & CHECK_EVENT_FLAG_INVALID_ARGUMENTS)
        f->rejected_at = now;
    int rc = deadlock_detector_feed(f->det, ev, now);
    /* a leaf holds the rank's later calls until the root's model left this one */
    int noted = f->answers && (rc == MG_ERROR_OK || rc == MG_ERROR_ENOENT)
                    ? tbon_root_note(f->answers, ev)
                    : MG_ERROR_OK;
    fed(f, ev, 0, noted ? noted : rc);
}

/* A leaf's summary: each of its ranks entered and left the collective of ev (two records each). */
static void on_summary(void *ctx, const check_event *ev, const int32_t *ranks, int32_t n)
{
    check_feed *f = ctx;
    uint64_t now;
    if (!feeding(f, &now))
        return;
    for (int32_t k = 0; k < n; k++)
        note_records(f, ranks[k], 2);
    fed(f, ev, n, deadlock_detector_feed_summary(f->det, ev, ranks, n, now));
}

static void on_site(void *ctx, int rank, uint64_t addr, const site_resolver_info *site)
{
    check_feed *f = ctx;
    site_resolver_store(f->sites, rank, addr, site);
}

/* A rank whose stream ended on this node (drained here, or named by a share agent's verdict) is
 * found, even when its process came and went between this node's scans of /proc: the job's ranks
 * are those the streams reported. */
static void note_found(check_feed *f, int rank, int world, int pid)
{
    if (pid > 0 && job_session_note_rank(f->job, rank, world, pid) != MG_ERROR_OK)
        f->failed = 1;
}

static void on_rank_end(void *ctx, int rank, int end, uint64_t lost)
{
    check_feed *f = ctx;
    if (f->agent) {
        check_agent_stats st;
        check_agent_stats_get(f->agent, &st);
        note_found(f, rank, st.world_size, check_agent_pid(f->agent, rank));
    }
    f->lost_ended += lost;
    check_policy_note_stream_end(&f->policy);
    if (rank >= 0 && rank < f->world)
        f->ended[rank] = 1;
    if (lost)
        mg_log_warn("check: rank %d dropped %llu records (its ring was full and its reader gone or "
                    "stalled): findings involving it may be wrong",
                    rank, (unsigned long long)lost);
    if (end == CHECK_AGENT_CORRUPT)
        mg_log_warn("check: rank %d: its event ring is corrupt; its later calls are not analysed",
                    rank);
    /* A rank that ends because mpiguard was interrupted (Ctrl-C reaches the ranks too, or
     * mpiguard passes the signal on) did not vanish on its own: the ranks waiting for it are not
     * stuck on it. */
    if (end == CHECK_AGENT_LOST && job_interrupting_signal(f->job->process))
        mg_log_info("check: rank %d ended with the interrupted job", rank);
    else if ((end == CHECK_AGENT_LOST || end == CHECK_AGENT_CORRUPT) &&
             ensure_detector(f) == MG_ERROR_OK) {
        mg_log_info("check: rank %d ended without MPI_Finalize", rank);
        deadlock_detector_process_lost(f->det, rank, check_feed_now());
    }
}

static void on_world(void *ctx, int size)
{
    set_world(ctx, size);
}

static void on_state(void *ctx, int rank, uint64_t seq)
{
    check_feed *f = ctx;
    if (rank >= 0 && rank < f->world)
        f->blocked[rank] = seq;
}

/* A node agent's verdict on one of its ranks: the rank's pid and node for the report, and the
 * verdict for the observation. */
static void on_observe(void *ctx, int agent, const char *node, const record_stream_verdict *v)
{
    check_feed *f = ctx;
    set_world(f, v->world);
    if (!f->across_nodes)
        note_found(f, v->rank, v->world, v->pid);
    if (!f->across_nodes || v->rank < 0 || v->rank >= f->world || !f->observer)
        return;
    job_session_rank *k = &f->job->ranks[v->rank];
    f->job->found += !k->pid;
    k->pid = v->pid;
    snprintf(k->host, sizeof k->host, "%s", node);
    f->agent_of[v->rank] = agent + 1;
    if (v->cause == RANK_OBSERVE_OK)
        mg_log_info("check: rank %d is observed on %s (pid %d)", v->rank, node, v->pid);
    f->newly_blind += observe_ranks_remote(f->observer, v->rank, v->pid, node,
                                           (rank_observe_cause)v->cause, v->detail);
}

/* A leaf of the tree of detectors closed its stream before its end (killed): the ranks of its
 * share whose streams had not ended are no longer seen. */
static void on_leaf_lost(check_feed *f, const char *node, const check_remote_end *end)
{
    char ranks[96], detail[256];
    agent_stage_format_ranks(end->ranks, end->n_ranks, ranks, sizeof ranks);
    snprintf(detail, sizeof detail,
             "leaf %d of the tree of detectors (ranks %s) was lost while the rank ran: its "
             "calls are no longer seen",
             end->share, ranks);
    mg_log_warn("check: the %s", detail);
    for (int32_t i = 0; f->observer && i < end->n_ranks; i++)
        if (!f->ended[end->ranks[i]])
            f->newly_blind += observe_ranks_remote(f->observer, end->ranks[i], 0,
                                                   node[0] ? node : "?", RANK_OBSERVE_AGENT_LOST,
                                                   detail);
}

/* A leaf's share came (its ranks, whichever they are: a node's): the root knows which leaf
 * streams each rank, and refuses a rank two leaves claim. Once every leaf said its share, a rank
 * none claimed is not observed: no leaf will ever send its calls. */
static void on_share(void *ctx, int agent, const char *node, const int32_t *ranks, int32_t n)
{
    check_feed *f = ctx;
    if (!f->leaves || ensure_detector(f) != MG_ERROR_OK || !f->answers)
        return;
    int32_t clash = -1, first;
    int rc = tbon_root_claim(f->answers, agent, ranks, n, &clash);
    if (rc == MG_ERROR_ESTATE)
        mg_log_error("check: the leaf on %s streams rank %d, which another leaf of the tree of "
                     "detectors streams already: a rank's calls would be matched twice",
                     node[0] ? node : "?", clash);
    else if (rc)
        mg_log_error("check: the leaf on %s names ranks outside the job's %d (%s)",
                     node[0] ? node : "?", f->world, mg_error_string(rc));
    if (rc) {
        f->failed = 1;
        return;
    }
    if (++f->leaves_known < f->leaves || !tbon_root_unclaimed(f->answers, &first) || !f->observer)
        return;
    const char *detail = "no leaf of the tree of detectors streams it: its node's agent did not "
                         "find it";
    for (int32_t k = first; k < f->world; k++)
        if (tbon_root_owner(f->answers, k) < 0)
            f->newly_blind += observe_ranks_remote(f->observer, k, 0, "?", RANK_OBSERVE_AGENT_LOST,
                                                   detail);
}

/* An agent's stream closed: the ranks it judged whose streams had not ended are lost with it. */
static void on_agent_closed(void *ctx, int agent, const char *node, const check_remote_end *end)
{
    check_feed *f = ctx;
    if (f->leaves && !end->done && end->shares && end->ranks) {
        on_leaf_lost(f, node, end);
        return;
    }
    char detail[256];
    snprintf(detail, sizeof detail,
             "the agent on node %s was lost while the rank ran: its calls are no longer seen",
             node[0] ? node : "?");
    for (int k = 0; f->observer && k < f->world; k++)
        if (f->agent_of[k] == agent + 1 && !f->ended[k])
            f->newly_blind += observe_ranks_remote(f->observer, k, 0, node[0] ? node : "?",
                                                   RANK_OBSERVE_AGENT_LOST, detail);
}

/* The ranks still to come by the counts the agents' HELLOs gave (rank_observe_to_come). */
static int32_t ranks_to_come(const check_feed *f)
{
    rank_observe_agent agents[CHECK_REMOTE_MAX_AGENTS] = {{0}};
    int n = check_remote_agents(f->remote, agents);
    for (int k = 0; k < f->world; k++)
        if (f->agent_of[k] > 0 && f->agent_of[k] <= n)
            agents[f->agent_of[k] - 1].named++;
    return rank_observe_to_come(f->world, agents, n);
}

/* Across nodes, the ranks no agent named by the time rank_observe_unfound gives up on them: they
 * will not be observed, which is said while the job runs (the job is then stopped as for any rank
 * not observed) rather than only at its end. While the agents' counts say ranks are still to come
 * (an agent its launcher started late), the longer wait is said every few seconds. */
static void name_unfound(check_feed *f)
{
    if (!f->across_nodes || !f->world || !f->observer || !f->remote || f->unfound_named)
        return;
    double now = mg_clock_seconds(), joined = check_remote_joined_at(f->remote);
    double world_for = now - f->world_at, joined_for = joined > 0 ? now - joined : -1;
    if (!rank_observe_unfound(world_for, joined_for, 0))
        return;
    int32_t to_come = ranks_to_come(f);
    if (!rank_observe_unfound(world_for, joined_for, to_come)) {
        if (now - f->waiting_said_at >= CHECK_FEED_WAITING_EVERY_S) {
            f->waiting_said_at = now;
            mg_log_warn("check: the agents' counts of their nodes' ranks leave %d rank%s to come "
                        "(an agent started late): waiting, %.0f s of at most %.0f s",
                        to_come, to_come == 1 ? "" : "s",
                        world_for < joined_for ? world_for : joined_for, RANK_OBSERVE_ANNOUNCED_S);
        }
        return;
    }
    f->unfound_named = 1;
    char detail[256];
    snprintf(detail, sizeof detail,
             "no agent found it in the %.0f s since the job's size was known and every agent "
             "joined: its node has no agent, or a wrapper started it without mpiguard's "
             "environment (%s)",
             now - f->world_at, MG_ENV_JOB_TOKEN);
    for (int k = 0; k < f->world; k++)
        if (!f->agent_of[k] && observe_ranks_cause(f->observer, k) == RANK_OBSERVE_PENDING)
            f->newly_blind += observe_ranks_remote(f->observer, k, 0, "?", RANK_OBSERVE_NOT_FOUND,
                                                   detail);
}

size_t check_feed_drain(check_feed *f, int wait_ms)
{
    const check_remote_sink sink = {{f, on_record, on_site, on_rank_end},
                                    on_world,
                                    on_state,
                                    on_observe,
                                    on_summary,
                                    on_agent_closed,
                                    on_share};
    size_t n = 0, total = 0;
    /* Bounded, so a job that writes faster than this drains still sees triggers and signals. */
    for (int round = 0; round < 16 && (round == 0 || n > 0) && !f->failed; round++) {
        int rc = f->agent ? check_agent_poll(f->agent, &sink.base, CHECK_POLL_RECORDS, &n)
                          : check_remote_poll(f->remote, &sink, total ? 0 : wait_ms, &n);
        f->failed |= rc != MG_ERROR_OK;
        total += n;
    }
    const tbon_leaf_call *calls;
    size_t ncalls = 0;
    if (f->answers && tbon_root_answers(f->answers, f->det, &calls, &ncalls) != MG_ERROR_OK)
        f->failed = 1;
    if (f->answers)
        check_remote_answer(f->remote, calls, ncalls);
    name_unfound(f);
    return total;
}

int check_feed_wait_ms(const check_feed *f)
{
    return f->rejected_at && check_feed_now() - f->rejected_at < 200000000u ? 1 : 20;
}

check_policy_readings check_feed_readings(check_feed *f)
{
    if (f->agent)
        for (int k = 0; k < f->world; k++)
            f->blocked[k] = check_agent_blocked_seq(f->agent, k);
    return (check_policy_readings){f->world, f->blocked, f->rank_records, f->ended,
                                   f->answers ? tbon_root_seen(f->answers) : NULL};
}

int check_feed_ring_published(void *ctx, int rank)
{
    const check_feed *f = ctx;
    if (rank < f->world && (f->captured[rank] || f->ended[rank]))
        return 1;
    char path[256];
    snprintf(path, sizeof path, "/dev/shm" EVENT_RING_NAME_FORMAT, f->job->token, rank);
    if (access(path, F_OK) == 0)
        return 1;
    return f->remote && !f->across_nodes && !check_remote_done(f->remote) ? -1 : 0;
}

int check_feed_all_told(const check_feed *f)
{
    if (!f->across_nodes || f->world == 0)
        return 0;
    for (int k = 0; k < f->world; k++) {
        rank_observe_cause c = observe_ranks_cause(f->observer, k);
        if (c == RANK_OBSERVE_PENDING || (c == RANK_OBSERVE_OK && !f->ended[k]))
            return 0;
    }
    return 1;
}

void check_feed_stats(const check_feed *f, check_agent_stats *out)
{
    *out = (check_agent_stats){.lost = f->lost_ended};
    if (f->agent)
        check_agent_stats_get(f->agent, out);
}

void check_feed_destroy(check_feed *f)
{
    deadlock_detector_destroy(f->det);
    tbon_root_destroy(f->answers);
    check_agent_destroy(f->agent);
    site_resolver_destroy(f->sites);
    free(f->blocked);
    free(f->captured);
    free(f->ended);
    free(f->rank_records);
    free(f->agent_of);
}
