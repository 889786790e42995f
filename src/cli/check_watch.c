/* The watch of `mpiguard check` (check_watch.h): the records in, the analysis, the decision to
 * stop as the engine's check_policy decides (docs/design/check.md; docs/check.md). */
#include "check_watch.h"

#include "check_findings.h"
#include "finding_text.h"
#include "check_report.h"
#include "event_ring.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "mg_clock.h"
#include "observe_ranks.h"
#include "report_class.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Records drained per poll before the triggers are looked at again. */
#define CHECK_POLL_RECORDS 65536

/* The detector's clock is integer nanoseconds (deadlock_detector.h). */
static uint64_t now_ns(void)
{
    return (uint64_t)(mg_clock_seconds() * 1e9);
}

/* Whether the ranks are on other nodes, each judged by its node's agent (--agent-launcher). */
static int across_nodes(const check_run *r)
{
    return r->o->agent_launcher != NULL;
}

static void set_world(check_run *r, int size)
{
    if (r->world || size <= 0)
        return;
    r->blocked = calloc((size_t)size, sizeof *r->blocked);
    r->captured = calloc((size_t)size, sizeof *r->captured);
    r->ended = calloc((size_t)size, sizeof *r->ended);
    r->rank_records = calloc((size_t)size, sizeof *r->rank_records);
    r->agent_of = calloc((size_t)size, sizeof *r->agent_of);
    /* across nodes the agents, not this node's /proc, tell the session its ranks */
    cli_session *s = r->s;
    if (across_nodes(r) && !s->job.ranks &&
        (s->job.ranks = calloc((size_t)size, sizeof *s->job.ranks)))
        s->job.nranks = size;
    if (!r->blocked || !r->captured || !r->ended || !r->rank_records || !r->agent_of ||
        (across_nodes(r) && s->job.nranks != size))
        r->failed = 1;
    else
        r->world = size;
    r->too_many_leaves = r->o->detector_leaves > size;
}

static int ensure_detector(check_run *r)
{
    if (r->det)
        return MG_OK;
    if (r->agent) {
        check_agent_stats st;
        check_agent_stats_get(r->agent, &st);
        set_world(r, st.world_size);
    }
    if (!r->world)
        return MG_ESTATE;
    dl_params p;
    dl_params_default(&p);
    p.buffered_standard_sends = r->o->buffered_sends;
    p.probing = 1;
    p.deciding = r->o->wildcards == 1;
    int rc = r->o->detector_leaves && !r->answers ? tbon_root_create(r->world, &r->answers) : MG_OK;
    return rc ? rc : deadlock_detector_create(&p, r->world, &r->det);
}

/* Counts rank's records seen: the watch's sign of its progress. */
static void note_records(check_run *r, int rank, uint64_t n)
{
    if (rank >= 0 && rank < r->world) {
        r->captured[rank] = 1;
        r->rank_records[rank] += n;
    }
}

/* Whether the detector is there to be fed (else the run failed); the record's arrival is noted. */
static int feeding(check_run *r, uint64_t *now)
{
    if (ensure_detector(r) != MG_OK) {
        r->failed = 1;
        return 0;
    }
    *now = now_ns();
    check_policy_note_record(&r->policy, *now);
    return 1;
}

/* What the detector said of a record (or a leaf's summary of `ranks`): the first refusal is said,
 * all are counted. */
static void fed(check_run *r, const check_event *ev, int32_t ranks, int rc)
{
    r->broken |= rc != MG_OK && rc != MG_ENOENT; /* unknown communicators are skipped calls */
    if (rc == MG_OK || r->feed_errors++ > 0)
        return;
    char what[64];
    if (ranks)
        snprintf(what, sizeof what, "ranks %d-%d: a leaf's summary", ev->rank,
                 ev->rank + ranks - 1);
    else
        snprintf(what, sizeof what, "rank %d: the %s record %llu", ev->rank,
                 ev->kind == CHECK_EV_ENTER ? "entry" : "exit", (unsigned long long)ev->seq);
    mg_warn("check: %s of %s was not accepted (%s); later rejections are counted in the report",
            what, check_func_describe(ev->func) ? check_func_describe(ev->func)->name : "?",
            mg_strerror(rc));
}

static void on_record(void *ctx, const check_event *ev, const uint8_t *bytes, size_t len)
{
    (void)bytes, (void)len;
    check_run *r = ctx;
    uint64_t now;
    if (!feeding(r, &now))
        return;
    note_records(r, ev->rank, 1);
    int rc = deadlock_detector_feed(r->det, ev, now);
    /* a leaf holds the rank's later calls until the root's model left this one */
    int noted = r->answers && (rc == MG_OK || rc == MG_ENOENT) ? tbon_root_note(r->answers, ev)
                                                                : MG_OK;
    fed(r, ev, 0, noted ? noted : rc);
}

/* A leaf's summary: each of its ranks entered and left the collective of ev (two records each). */
static void on_summary(void *ctx, const check_event *ev, int32_t ranks)
{
    check_run *r = ctx;
    uint64_t now;
    if (!feeding(r, &now))
        return;
    for (int32_t k = 0; k < ranks; k++)
        note_records(r, ev->rank + k, 2);
    fed(r, ev, ranks, deadlock_detector_feed_summary(r->det, ev, ranks, now));
}

static void on_site(void *ctx, int rank, uint64_t addr, const site_info *site)
{
    check_run *r = ctx;
    site_resolver_store(r->sites, rank, addr, site->function, site->file, site->line);
}

static void on_rank_end(void *ctx, int rank, int end, uint64_t lost)
{
    check_run *r = ctx;
    r->lost_ended += lost;
    check_policy_note_stream_end(&r->policy);
    if (rank >= 0 && rank < r->world)
        r->ended[rank] = 1;
    if (lost)
        mg_warn("check: rank %d dropped %llu records (its ring was full and its reader gone or "
                "stalled): findings involving it may be wrong",
                rank, (unsigned long long)lost);
    if (end == CHECK_AGENT_CORRUPT)
        mg_warn("check: rank %d: its event ring is corrupt; its later calls are not analysed",
                rank);
    /* A rank that ends because mpiguard was interrupted (Ctrl-C reaches the ranks too, or
     * mpiguard passes the signal on) did not vanish on its own: the ranks waiting for it are not
     * stuck on it. */
    if (end == CHECK_AGENT_LOST && mg_job_interrupting_signal(r->s->job.process))
        mg_info("check: rank %d ended with the interrupted job", rank);
    else if ((end == CHECK_AGENT_LOST || end == CHECK_AGENT_CORRUPT) &&
             ensure_detector(r) == MG_OK) {
        mg_info("check: rank %d ended without MPI_Finalize", rank);
        deadlock_detector_process_lost(r->det, rank, now_ns());
    }
}

static void on_world(void *ctx, int size)
{
    set_world(ctx, size);
}

static void on_state(void *ctx, int rank, uint64_t seq)
{
    check_run *r = ctx;
    if (rank >= 0 && rank < r->world)
        r->blocked[rank] = seq;
}

/* A node agent's verdict on one of its ranks: the rank's pid and node for the report, and the
 * verdict for the observation. */
static void on_observe(void *ctx, int agent, const char *node, const record_stream_verdict *v)
{
    check_run *r = ctx;
    set_world(r, v->world);
    if (!across_nodes(r) || v->rank < 0 || v->rank >= r->world || !r->observer)
        return;
    job_session_rank *k = &r->s->job.ranks[v->rank];
    r->s->job.found += !k->pid;
    k->pid = v->pid;
    snprintf(k->host, sizeof k->host, "%s", node);
    r->agent_of[v->rank] = agent + 1;
    if (v->cause == MG_OBSERVE_OK)
        mg_info("check: rank %d is observed on %s (pid %d)", v->rank, node, v->pid);
    r->newly_blind += observe_ranks_remote(r->observer, v->rank, v->pid, node,
                                           (mg_observe_cause)v->cause, v->detail);
}

/* A leaf of the tree of detectors closed its stream before its end (killed): the ranks of its
 * share whose streams had not ended are no longer seen. */
static void on_leaf_lost(check_run *r, const char *node, const check_remote_end *end)
{
    int first, last;
    check_agent_share_range(r->world, end->share, end->shares, &first, &last);
    char detail[256];
    snprintf(detail, sizeof detail,
             "leaf %d of the tree of detectors (ranks %d-%d) was lost while the rank ran: its "
             "calls are no longer seen",
             end->share, first, last - 1);
    mg_warn("check: the %s", detail);
    for (int k = first; r->observer && k < last; k++)
        if (!r->ended[k])
            r->newly_blind += observe_ranks_remote(r->observer, k, 0, node[0] ? node : "?",
                                                   MG_OBSERVE_AGENT_LOST, detail);
}

/* An agent's stream closed: the ranks it judged whose streams had not ended are lost with it. */
static void on_agent_closed(void *ctx, int agent, const char *node, const check_remote_end *end)
{
    check_run *r = ctx;
    if (r->o->detector_leaves && !end->done && end->shares && r->world) {
        on_leaf_lost(r, node, end);
        return;
    }
    char detail[256];
    snprintf(detail, sizeof detail,
             "the agent on node %s was lost while the rank ran: its calls are no longer seen",
             node[0] ? node : "?");
    for (int k = 0; r->observer && k < r->world; k++)
        if (r->agent_of[k] == agent + 1 && !r->ended[k])
            r->newly_blind += observe_ranks_remote(r->observer, k, 0, node[0] ? node : "?",
                                                   MG_OBSERVE_AGENT_LOST, detail);
}

/* Drains what the rings (or the agents' streams) hold now, waiting up to wait_ms for the first
 * bytes of a stream. Returns the records read. */
static size_t drain(check_run *r, int wait_ms)
{
    const check_remote_sink sink = {{r, on_record, on_site, on_rank_end},
                                    on_world,
                                    on_state,
                                    on_observe,
                                    on_summary,
                                    on_agent_closed};
    size_t n = 0, total = 0;
    /* Bounded, so a job that writes faster than this drains still sees triggers and signals. */
    for (int round = 0; round < 16 && (round == 0 || n > 0) && !r->failed; round++) {
        int rc = r->agent ? check_agent_poll(r->agent, &sink.base, CHECK_POLL_RECORDS, &n)
                          : check_remote_poll(r->remote, &sink, total ? 0 : wait_ms, &n);
        r->failed |= rc != MG_OK;
        total += n;
    }
    const tbon_leaf_call *calls;
    size_t ncalls = 0;
    if (r->answers && tbon_root_answers(r->answers, r->det, &calls, &ncalls) != MG_OK)
        r->failed = 1;
    if (r->answers)
        check_remote_answer(r->remote, r->world, calls, ncalls);
    return total;
}

/* What the policy reads of the ranks now: with the in-process agent, whether each rank is inside
 * a call with its ring drained is read from its ring at this moment. */
static check_readings readings(check_run *r)
{
    if (r->agent)
        for (int k = 0; k < r->world; k++)
            r->blocked[k] = check_agent_blocked_seq(r->agent, k);
    return (check_readings){r->world, r->blocked, r->rank_records, r->ended,
                            r->answers ? tbon_root_seen(r->answers) : NULL};
}

/* Whether the root has the record of every call the ranks are in (check_policy_view); the
 * leaves are asked for what they hold. */
static int view_whole(check_run *r)
{
    check_readings rd = readings(r);
    int32_t rank;
    enum check_view v = check_policy_view(&r->policy, &rd, now_ns(), &rank);
    if (v == CHECK_VIEW_ASK)
        check_remote_release(r->remote);
    if (v == CHECK_VIEW_GAVE_UP)
        mg_warn("check: rank %d is in a call whose record its leaf never sent up: the analysis "
                "goes on without it",
                rank);
    return v == CHECK_VIEW_WHOLE || v == CHECK_VIEW_GAVE_UP;
}

/* Reports the findings the detector added since the last call. Returns 1 when a deadlock was
 * confirmed. ended: the job is over (nothing to confirm against). */
static int report_new(check_run *r, int ended)
{
    size_t n;
    const dl_finding *fs = deadlock_detector_findings(r->det, &n);
    int deadlock = 0;
    size_t written = check_report_refresh(r, fs);
    check_readings rd = readings(r);
    for (; r->reported < n; r->reported++) {
        const dl_finding *f = &fs[r->reported];
        int stops = check_policy_stops(f);
        enum check_confirmation c = stops && !ended ? check_policy_confirm(&r->policy, r->reported,
                                                                           f, &rd, now_ns())
                                                    : CHECK_CONFIRMED;
        if (c == CHECK_UNCONFIRMED)
            break; /* looked at again at the next poll; later findings wait behind it */
        if (c == CHECK_DROPPED) {
            mg_info("check: a %s was not confirmed (a rank moved on)", finding_text_kind(f->kind));
            continue;
        }
        if (!check_report_add(r, r->reported, f))
            continue;
        written++;
        const mg_report_class *cls = mg_report_class_find(finding_text_class(f));
        if (stops && !ended)
            deadlock = 1;
        else if (cls && strcmp(cls->severity, "note") == 0)
            r->notes++;
        else
            r->findings = 1;
        r->mismatch |= check_policy_hangs_after(f);
    }
    if (written)
        check_report_save(r);
    return deadlock;
}

static int check_now(check_run *r, int ended)
{
    if (!r->det)
        return 0;
    uint64_t now = now_ns();
    int rc = deadlock_detector_check_now(r->det, now, NULL);
    if (rc != MG_OK) {
        if (!r->broken)
            mg_warn("check: the wait-for analysis failed (%s)", mg_strerror(rc));
        r->broken = 1;
    }
    check_policy_analysed(&r->policy, r->det);
    return report_new(r, ended);
}

/* A rank's capture module started once its event ring exists (the rank made it in MPI_Init),
 * even before its first record. */
static int ring_published(void *ctx, int rank, uint64_t *calls)
{
    const check_run *r = ctx;
    int captured = rank < r->world && r->captured[rank];
    *calls = captured ? r->rank_records[rank] : 0;
    if (captured)
        return 1;
    char path[256];
    snprintf(path, sizeof path, "/dev/shm" EVENT_RING_NAME_FORMAT, r->s->job.token, rank);
    return access(path, F_OK) == 0;
}

static void stop_job(check_run *r)
{
    mg_job_stop(r->s->job.process);
    while (!job_session_wait(&r->s->job, 1000))
        ;
}

/* How the watch of a running job ended. */
enum watch_end { WATCH_JOB_ENDED, WATCH_DEADLOCK, WATCH_BLIND, WATCH_STUCK, WATCH_BAD_LEAVES };

/* Polls the job, feeding the detector and asking the policy, until the job ends, a deadlock is
 * confirmed, a rank turns out not observed, or the job hangs after reported errors (the job then
 * stopped, or left running for --on-deadlock continue), or the analysis runs out of memory. */
static enum watch_end watch_running(check_run *r, observe_ranks *observer)
{
    while (!r->failed) {
        int ended = job_session_wait(&r->s->job, r->agent ? 20 : 0);
        if (!across_nodes(r))
            job_session_discover(&r->s->job);
        drain(r, 20);
        if (ended)
            return WATCH_JOB_ENDED;
        if (r->too_many_leaves) {
            mg_error("check: --detector-leaves %ld is more than the job's %d ranks: a leaf needs "
                     "at least one rank",
                     r->o->detector_leaves, r->world);
            stop_job(r);
            return WATCH_BAD_LEAVES;
        }
        int blind = observe_ranks_update(observer, 0) + r->newly_blind;
        r->newly_blind = 0;
        if (blind) {
            mg_warn(
                "check: stopping the job: a rank it cannot observe leaves any verdict unfounded");
            stop_job(r);
            return WATCH_BLIND;
        }
        int found = r->policy.pending ? report_new(r, 0) : 0;
        if (!found && check_policy_due(&r->policy, r->det, now_ns()) && view_whole(r))
            found = check_now(r, 0);
        if (found) {
            r->deadlock = 1;
            if (r->o->on_deadlock == 0) {
                mg_warn("check: stopping the job");
                mg_job_stop(r->s->job.process);
            }
            while (!job_session_wait(&r->s->job, 1000))
                ;
            return WATCH_DEADLOCK;
        }
        check_readings rd = readings(r);
        if (check_policy_stuck(&r->policy, r->mismatch || r->broken, &rd, now_ns())) {
            mg_warn("check: the job makes no progress after the %s above: stopping it",
                    r->mismatch ? "errors" : "analysis failure");
            stop_job(r);
            return WATCH_STUCK;
        }
    }
    return WATCH_JOB_ENDED;
}

/* Across nodes, whether every rank was judged by its agent, and the stream of each observed one
 * ended: nothing more is to come (an agent of a node without ranks never closes). */
static int every_rank_told(const check_run *r)
{
    if (!across_nodes(r) || r->world == 0)
        return 0;
    for (int k = 0; k < r->world; k++) {
        mg_observe_cause c = observe_ranks_cause(r->observer, k);
        if (c == MG_OBSERVE_PENDING || (c == MG_OBSERVE_OK && !r->ended[k]))
            return 0;
    }
    return 1;
}

/* After the job: the records still on their way, the last analysis, and which ranks were
 * observed (written to the report). */
static void finish(check_run *r, observe_ranks *observer)
{
    drain(r, 0);
    /* Agent processes end once their ranks' streams ended: what they still send is the end of
     * the job. Bounded, so an agent that never connected cannot hold mpiguard; one that died has
     * closed its connection already. 5 s once cut off a live agent on a machine at load 47 (a
     * rank's records lost); the bound only costs time when an agent is missing. */
    for (uint64_t until = now_ns() + 30000000000ULL; r->remote && !r->too_many_leaves &&
                                                     !check_remote_done(r->remote) &&
                                                     !every_rank_told(r) && now_ns() < until;)
        drain(r, 100);
    if (!r->deadlock)
        check_now(r, 1);
    check_report_tool_data(r);
    /* a job stopped for a wrong --detector-leaves was stopped by us, not observed: no verdicts */
    if (!observer || r->too_many_leaves)
        return;
    observe_ranks_update(observer, 1);
    r->observed = observe_ranks_observed(observer);
    r->blind = observe_ranks_blind(observer);
    if (across_nodes(r) && r->observed + r->blind < r->world)
        mg_warn("check: %d of %d ranks were never reported by an agent (no agent ran on their "
                "node, or it never found them): they are not observed",
                r->world - r->observed - r->blind, r->world);
    /* A job of which nothing was seen (its ranks on nodes this one cannot see, and no agent
     * there) is not clean; across nodes a rank no agent told of is as blind as one found blind. */
    if (r->world == 0 && r->s->job.nranks == 0)
        mg_warn("check: no rank of the job was seen%s: nothing was observed",
                across_nodes(r) ? " by any agent"
                                : " on this node (ranks on other nodes need --agent-launcher)");
    if (across_nodes(r) || (r->world == 0 && r->s->job.nranks == 0))
        r->blind = (r->world ? r->world : 1) - r->observed;
    const char *sampler[r->s->job.nranks > 0 ? r->s->job.nranks : 1];
    for (int k = 0; k < r->s->job.nranks; k++)
        sampler[k] = observe_ranks_cause(observer, k) == MG_OBSERVE_OK ? "ring" : NULL;
    cli_session_record_observation(r->s, observer, sampler);
}

/* Watches the job until it ends, a deadlock is confirmed, it hangs after reported errors, or a
 * rank turns out not observed. Returns the finding status: MG_EXIT_DEADLOCK, MG_EXIT_FINDINGS
 * (stopped after a mismatch), MG_EXIT_SOFTWARE (stopped after the analysis failed),
 * MG_EXIT_UNOBSERVED (stopped at once on a rank it could not observe, since no verdict of the
 * analysis would hold), MG_EXIT_USAGE (stopped: more --detector-leaves than ranks) or 0; r->blind
 * counts the ranks not observed, the job stopped or not. */
int check_watch(check_run *r)
{
    check_policy_init(&r->policy, r->o->quiet_time, now_ns());
    observe_ranks *observer = observe_ranks_create(&r->s->job, ring_published, r);
    r->observer = observer;
    r->failed = !observer;
    enum watch_end end = watch_running(r, observer);
    finish(r, observer);
    r->observer = NULL;
    observe_ranks_destroy(observer);
    if (r->failed)
        mg_error("check: out of memory while analysing the job");
    if (r->deadlock)
        return MG_EXIT_DEADLOCK;
    if (end == WATCH_STUCK)
        return r->mismatch ? MG_EXIT_FINDINGS : MG_EXIT_SOFTWARE;
    if (end == WATCH_BAD_LEAVES)
        return MG_EXIT_USAGE;
    return end == WATCH_BLIND ? MG_EXIT_UNOBSERVED : 0;
}
