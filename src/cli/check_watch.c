/* The watch of `mpiguard check` (check_watch.h): the records in, the analysis, the decision to
 * stop as the engine's check_policy decides (docs/design/check.md; docs/check.md). */
#include "check_watch.h"

#include "check_coverage.h"
#include "check_report.h"
#include "finding_text.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "report_class.h"

#include <string.h>

/* Whether the root has the record of every call the ranks are in (check_policy_view); the
 * leaves are asked for what they hold. */
static int view_whole(check_run *r)
{
    check_policy_readings rd = check_feed_readings(&r->feed);
    int32_t rank;
    enum check_policy_view_kind v = check_policy_view(&r->feed.policy, &rd, check_feed_now(),
                                                      &rank);
    if (v == CHECK_POLICY_VIEW_ASK)
        check_remote_release(r->feed.remote);
    if (v == CHECK_POLICY_VIEW_GAVE_UP)
        mg_log_warn("check: rank %d is in a call whose record its leaf never sent up: the analysis "
                    "goes on without it",
                    rank);
    return v == CHECK_POLICY_VIEW_WHOLE || v == CHECK_POLICY_VIEW_GAVE_UP;
}

/* Reports the findings the detector added since the last call. Returns 1 when a deadlock was
 * confirmed. ended: the job is over (nothing to confirm against). */
static int report_new(check_run *r, int ended)
{
    size_t n;
    const dl_finding *fs = deadlock_detector_findings(r->feed.det, &n);
    int deadlock = 0;
    size_t written = check_report_refresh(r, fs);
    check_policy_readings rd = check_feed_readings(&r->feed);
    for (; r->reported < n; r->reported++) {
        const dl_finding *f = &fs[r->reported];
        int stops = check_policy_stops(f);
        enum check_policy_confirmation c = stops && !ended
                                               ? check_policy_confirm(&r->feed.policy, r->reported,
                                                                      f, &rd, check_feed_now())
                                               : CHECK_POLICY_CONFIRMED;
        if (c == CHECK_POLICY_UNCONFIRMED)
            break; /* looked at again at the next poll; later findings wait behind it */
        if (c == CHECK_POLICY_DROPPED) {
            mg_log_info("check: a %s was not confirmed (a rank moved on)",
                        finding_text_kind(f->kind));
            continue;
        }
        if (!check_report_add(r, r->reported, f))
            continue;
        written++;
        const report_class *cls = report_class_find(finding_text_class(f));
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
    if (!r->feed.det)
        return 0;
    /* at the end the mismatches held until a refusal can no longer come are reported: none can */
    int rc = ended ? deadlock_detector_end(r->feed.det) : MG_ERROR_OK;
    int rc2 = deadlock_detector_check_now(r->feed.det, check_feed_now(), NULL);
    rc = rc ? rc : rc2;
    if (rc != MG_ERROR_OK) {
        if (!r->feed.broken)
            mg_log_warn("check: the wait-for analysis failed (%s)", mg_error_string(rc));
        r->feed.broken = 1;
    }
    check_policy_analysed(&r->feed.policy, r->feed.det);
    return report_new(r, ended);
}

/* Stops the job; the ranks it ends before they reached MPI_Init are said to be so, not blind for
 * a cause of their own. */
static void stop_job(check_run *r)
{
    observe_ranks_job_stopped(r->feed.observer);
    job_stop(r->s->job.process, JOB_STOP_GRACE_SECONDS);
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
    check_feed *f = &r->feed;
    int blind = 0;
    while (!f->failed) {
        int ended = job_session_wait(&r->s->job, f->agent ? check_feed_wait_ms(f) : 0);
        if (!f->across_nodes)
            job_session_discover(&r->s->job);
        check_feed_drain(f, 20);
        if (ended)
            return WATCH_JOB_ENDED;
        if (f->too_many_leaves) {
            mg_log_error(
                "check: --detector-leaves %ld is more than the job's %d ranks: a leaf needs "
                "at least one rank",
                r->o->detector_leaves, f->world);
            stop_job(r);
            return WATCH_BAD_LEAVES;
        }
        blind += observe_ranks_update(observer, 0) + f->newly_blind;
        f->newly_blind = 0;
        /* the other ranks' own causes first, at most RANK_OBSERVE_SETTLE_S more */
        if (blind && !observe_ranks_settling(observer)) {
            mg_log_warn(
                "check: stopping the job: a rank it cannot observe leaves any verdict unfounded");
            stop_job(r);
            return WATCH_BLIND;
        }
        if (blind)
            continue;
        int found = f->policy.pending ? report_new(r, 0) : 0;
        if (!found && check_policy_due(&f->policy, f->det, check_feed_now()) && view_whole(r))
            found = check_now(r, 0);
        if (found) {
            r->deadlock = 1;
            if (r->o->on_deadlock == 0) {
                mg_log_warn("check: stopping the job");
                stop_job(r);
            }
            while (!job_session_wait(&r->s->job, 1000))
                ;
            return WATCH_DEADLOCK;
        }
        check_policy_readings rd = check_feed_readings(f);
        if (check_policy_stuck(&f->policy, r->mismatch || f->broken, &rd, check_feed_now())) {
            mg_log_warn("check: the job makes no progress after the %s above: stopping it",
                        r->mismatch ? "errors" : "analysis failure");
            stop_job(r);
            return WATCH_STUCK;
        }
    }
    return WATCH_JOB_ENDED;
}

/* After the job: the records still on their way, the last analysis, and which ranks were
 * observed (written to the report). */
static void finish(check_run *r, observe_ranks *observer)
{
    check_feed *f = &r->feed;
    check_feed_drain(f, 0);
    uint64_t since = check_feed_now();
    while (f->remote && !f->too_many_leaves &&
           check_coverage_wait_streams(since, check_feed_now(),
                                       check_remote_done(f->remote) || check_feed_all_told(f)))
        check_feed_drain(f, 100);
    if (!r->deadlock)
        check_now(r, 1);
    check_report_tool_data(r);
    /* a job stopped for a wrong --detector-leaves was stopped by us, not observed: no verdicts */
    if (!observer || f->too_many_leaves)
        return;
    observe_ranks_update(observer, 1);
    r->observed = observe_ranks_observed(observer);
    check_coverage c = check_coverage_of(f->world, r->s->job.nranks, r->observed,
                                         observe_ranks_blind(observer), f->across_nodes);
    if (c.unreported)
        mg_log_warn("check: %d of %d ranks were never reported by an agent (no agent ran on their "
                    "node, or it never found them): they are not observed",
                    c.unreported, f->world);
    if (c.nothing_seen)
        mg_log_warn("check: no rank of the job was seen%s: nothing was observed",
                    f->across_nodes ? " by any agent"
                                    : " on this node (ranks on other nodes need --agent-launcher)");
    r->blind = c.blind;
    const char *sampler[r->s->job.nranks > 0 ? r->s->job.nranks : 1];
    for (int k = 0; k < r->s->job.nranks; k++)
        sampler[k] = observe_ranks_cause(observer, k) == RANK_OBSERVE_OK ? "ring" : NULL;
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
    check_policy_init(&r->feed.policy, r->o->quiet_time, check_feed_now());
    observe_ranks *observer = observe_ranks_create(&r->s->job, check_feed_ring_published, &r->feed);
    r->feed.observer = observer;
    r->feed.failed = !observer;
    if (observer && r->feed.across_nodes)
        observe_ranks_node_agents(observer);
    enum watch_end end = watch_running(r, observer);
    finish(r, observer);
    r->feed.observer = NULL;
    observe_ranks_destroy(observer);
    if (r->feed.failed)
        mg_log_error(
            "check: the analysis stopped (out of memory, or the error above): its verdicts "
            "are not founded");
    if (r->deadlock)
        return MG_EXIT_DEADLOCK;
    if (end == WATCH_STUCK)
        return r->mismatch ? MG_EXIT_FINDINGS : MG_EXIT_SOFTWARE;
    if (end == WATCH_BAD_LEAVES)
        return MG_EXIT_USAGE;
    return end == WATCH_BLIND ? MG_EXIT_UNOBSERVED : 0;
}
