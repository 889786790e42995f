/* The watch of `mpiguard check` (check_watch.h): the records in, the analysis, the decision to
 * stop (docs/design/check.md; docs/check.md). */
#include "check_watch.h"

#include "check_findings.h"
#include "check_report.h"
#include "event_ring.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "mg_clock.h"
#include "observe_ranks.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Records drained per poll before the triggers are looked at again. */
#define CHECK_POLL_RECORDS 65536
/* "Every live process blocked" fires once no record came for this long (a short settle, so a
 * rank between two calls is not taken for blocked). */
#define CHECK_SETTLE_NS 200000000ULL

/* The detector's clock is integer nanoseconds (deadlock_detector.h). */
static uint64_t now_ns(void)
{
    return (uint64_t)(mg_clock_seconds() * 1e9);
}

static void set_world(check_run *r, int size)
{
    if (r->world || size <= 0)
        return;
    r->blocked = calloc((size_t)size, sizeof *r->blocked);
    r->captured = calloc((size_t)size, sizeof *r->captured);
    r->ended = calloc((size_t)size, sizeof *r->ended);
    r->rank_records = calloc((size_t)size, sizeof *r->rank_records);
    if (!r->blocked || !r->captured || !r->ended || !r->rank_records)
        r->failed = 1;
    else
        r->world = size;
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
    return deadlock_detector_create(&p, r->world, &r->det);
}

static void on_record(void *ctx, const check_event *ev, const uint8_t *bytes, size_t len)
{
    (void)bytes, (void)len;
    check_run *r = ctx;
    if (ensure_detector(r) != MG_OK) {
        r->failed = 1;
        return;
    }
    r->last_record = now_ns();
    if (ev->rank >= 0 && ev->rank < r->world) {
        r->captured[ev->rank] = 1;
        r->rank_records[ev->rank]++;
    }
    int rc = deadlock_detector_feed(r->det, ev, r->last_record);
    r->broken |= rc != MG_OK && rc != MG_ENOENT; /* unknown communicators are skipped calls */
    if (rc != MG_OK && r->feed_errors++ == 0)
        mg_warn("check: rank %d: the %s record %llu of %s was not accepted (%s); later "
                "rejections are counted in the report",
                ev->rank, ev->kind == CHECK_EV_ENTER ? "entry" : "exit", (unsigned long long)ev->seq,
                check_func_describe(ev->func) ? check_func_describe(ev->func)->name : "?",
                mg_strerror(rc));
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
    r->stream_ended = 1;
    if (rank >= 0 && rank < r->world)
        r->ended[rank] = 1;
    if (lost)
        mg_warn("check: rank %d dropped %llu records (its ring was full and its reader gone or "
                "stalled): findings involving it may be wrong",
                rank, (unsigned long long)lost);
    if (end == CHECK_AGENT_CORRUPT)
        mg_warn("check: rank %d: its event ring is corrupt; its later calls are not analysed", rank);
    if ((end == CHECK_AGENT_LOST || end == CHECK_AGENT_CORRUPT) && ensure_detector(r) == MG_OK) {
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

/* Drains what the rings (or the agents' streams) hold now, waiting up to wait_ms for the first
 * bytes of a stream. Returns the records read. */
static size_t drain(check_run *r, int wait_ms)
{
    const check_remote_sink sink = {{r, on_record, on_site, on_rank_end}, on_world, on_state};
    size_t n = 0, total = 0;
    /* Bounded, so a job that writes faster than this drains still sees triggers and signals. */
    for (int round = 0; round < 16 && (round == 0 || n > 0) && !r->failed; round++) {
        int rc = r->agent ? check_agent_poll(r->agent, &sink.base, CHECK_POLL_RECORDS, &n)
                          : check_remote_poll(r->remote, &sink, total ? 0 : wait_ms, &n);
        r->failed |= rc != MG_OK;
        total += n;
    }
    return total;
}

static uint64_t blocked_seq(const check_run *r, int rank)
{
    if (r->agent)
        return check_agent_blocked_seq(r->agent, rank);
    return rank >= 0 && rank < r->world ? r->blocked[rank] : 0;
}

/* A deadlock is acted on only when every blocked rank of its knot is inside an MPI call with
 * nothing left in its ring: a rank whose next records were still on their way (a standard send
 * MPI buffered) would otherwise look deadlocked. */
static int confirmed(const check_run *r, const dl_finding *f)
{
    for (size_t i = 0; i < f->n_calls; i++)
        if (f->calls[i].in_knot && f->calls[i].state == WG_BLOCKED &&
            blocked_seq(r, f->calls[i].rank) == 0)
            return 0;
    return 1;
}

static uint64_t knot_records(const check_run *r, const dl_finding *f)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < f->n_calls; i++)
        if (f->calls[i].rank >= 0 && f->calls[i].rank < r->world)
            sum += r->rank_records[f->calls[i].rank];
    return sum;
}

/* Not confirmed yet: wait (1) while the finding's ranks send nothing new and for at most 5 s, so
 * a rank caught between writing its record and marking itself in the call (or preempted there on
 * a loaded machine) is looked at again; (0) drop it once one of them moved on or time is up. */
static int keep_pending(check_run *r, size_t index, const dl_finding *f)
{
    uint64_t mark = knot_records(r, f), now = now_ns();
    if (!r->pending || r->pending_index != index) {
        r->pending = 1;
        r->pending_index = index;
        r->pending_mark = mark;
        r->pending_since = now;
        return 1;
    }
    if (mark == r->pending_mark && now - r->pending_since < 5000000000ULL)
        return 1;
    r->pending = 0;
    mg_info("check: a %s was not confirmed (a rank moved on)", check_finding_kind(f->kind));
    return 0;
}

/* Reports the findings the detector added since the last call. Returns 1 when a deadlock was
 * confirmed. ended: the job is over (nothing to confirm against). */
static int report_new(check_run *r, int ended)
{
    size_t n;
    const dl_finding *fs = deadlock_detector_findings(r->det, &n);
    int deadlock = 0;
    size_t written = check_report_refresh(r, fs);
    for (; r->reported < n; r->reported++) {
        const dl_finding *f = &fs[r->reported];
        int stops = f->kind == DL_DEADLOCK || f->kind == DL_STUCK_ON_TERMINATED;
        if (stops && !ended && !confirmed(r, f)) {
            if (keep_pending(r, r->reported, f))
                break; /* looked at again at the next poll; later findings wait behind it */
            continue;
        }
        r->pending = 0;
        if (!check_report_add(r, r->reported, f))
            continue;
        written++;
        if (stops && !ended)
            deadlock = 1;
        else
            r->findings = 1;
        r->mismatch |= f->kind == DL_COLLECTIVE_MISMATCH;
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
    dl_queue_sizes q;
    deadlock_detector_queue_sizes(r->det, &q);
    r->held_at_check = q.held_records;
    r->last_check_records = q.records;
    r->stream_ended = 0;
    return report_new(r, ended);
}

/* The triggers of the analysis: quiet time, every live process blocked (after a short settle),
 * the last Finalize, queue growth. */
static int triggered(const check_run *r)
{
    if (!r->det)
        return 0;
    dl_queue_sizes q;
    deadlock_detector_queue_sizes(r->det, &q);
    if (r->stream_ended)
        return 1; /* a rank crashed or finalized: who waits for it? */
    if (q.records == r->last_check_records)
        return 0;
    uint64_t quiet = now_ns() - r->last_record;
    if (quiet >= (uint64_t)(r->o->quiet_time * 1e9))
        return 1;
    if (q.live_processes == 0)
        return 1;
    if (quiet >= CHECK_SETTLE_NS && deadlock_detector_is_every_live_process_blocked(r->det))
        return 1;
    return q.held_records >= 4096 && q.held_records >= 2 * r->held_at_check;
}

/* After a collective mismatch the job may hang where the model does not (a mismatching call counts
 * as an arrival in the model, but the MPI library never completes it); after the detector refused
 * records its model is incomplete and may miss a deadlock. Then no record for three quiet times
 * (at least 3 s: a long healthy collective is not taken for a hang) and every live rank inside an
 * MPI call means nothing will move again. */
static int stuck_after_errors(const check_run *r)
{
    double wait = 3 * r->o->quiet_time < 3.0 ? 3.0 : 3 * r->o->quiet_time;
    if (!(r->mismatch || r->broken) || !r->world ||
        now_ns() - r->last_record < (uint64_t)(wait * 1e9))
        return 0;
    for (int k = 0; k < r->world; k++)
        if (!r->ended[k] && blocked_seq(r, k) == 0)
            return 0;
    return 1;
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
    snprintf(path, sizeof path, "/dev/shm" EVENT_RING_NAME_FORMAT, r->s->token, rank);
    return access(path, F_OK) == 0;
}

static void stop_job(check_run *r)
{
    mg_job_stop(r->s->job);
    while (!cli_session_wait(r->s, 1000))
        ;
}

/* Watches the job until it ends, a deadlock is confirmed, it hangs after reported errors, or a
 * rank turns out not observed. Returns the finding status: MG_EXIT_DEADLOCK, MG_EXIT_FINDINGS
 * (stopped after a mismatch), MG_EXIT_SOFTWARE (stopped after the analysis failed),
 * MG_EXIT_UNOBSERVED (stopped at once on a rank it could not observe, since no verdict of the
 * analysis would hold) or 0; r->blind counts the ranks not observed, the job stopped or not. */
int check_watch(check_run *r)
{
    r->last_record = now_ns();
    int ended = 0, stuck = 0, blind = 0;
    observe_ranks *observer = observe_ranks_create(r->s, ring_published, r);
    r->failed = !observer;
    while (!ended && !r->failed) {
        ended = cli_session_wait(r->s, r->agent ? 20 : 0);
        cli_session_discover(r->s);
        drain(r, 20);
        if (!ended && observe_ranks_update(observer, 0)) {
            mg_warn("check: stopping the job: a rank it cannot observe leaves any verdict unfounded");
            stop_job(r);
            blind = 1;
            break;
        }
        int found = 0;
        if (!ended && r->pending)
            found = report_new(r, 0);
        if (!ended && !found && triggered(r))
            found = check_now(r, 0);
        if (found) {
            r->deadlock = 1;
            if (r->o->on_deadlock == 0) {
                mg_warn("check: stopping the job");
                mg_job_stop(r->s->job);
            }
            while (!cli_session_wait(r->s, 1000))
                ;
            break;
        }
        if (!ended && stuck_after_errors(r)) {
            mg_warn("check: the job makes no progress after the %s above: stopping it",
                    r->mismatch ? "errors" : "analysis failure");
            stop_job(r);
            stuck = 1;
            break;
        }
    }
    drain(r, 0);
    /* Agent processes end once their ranks' streams ended: what they still send is the end of
     * the job. Bounded, so an agent that never connected cannot hold mpiguard; one that died has
     * closed its connection already. 5 s once cut off a live agent on a machine at load 47 (a
     * rank's records lost); the bound only costs time when an agent is missing. */
    for (uint64_t until = now_ns() + 30000000000ULL; r->remote && !check_remote_done(r->remote) &&
                                                      now_ns() < until;)
        drain(r, 100);
    if (!r->deadlock)
        check_now(r, 1);
    check_report_tool_data(r);
    if (observer) {
        observe_ranks_update(observer, 1);
        r->observed = observe_ranks_observed(observer);
        r->blind = observe_ranks_blind(observer);
        const char *sampler[r->s->nranks > 0 ? r->s->nranks : 1];
        for (int k = 0; k < r->s->nranks; k++)
            sampler[k] = observe_ranks_cause(observer, k) == MG_OBSERVE_OK ? "ring" : NULL;
        observe_ranks_record(observer, sampler);
        observe_ranks_destroy(observer);
    }
    if (r->failed)
        mg_error("check: out of memory while analysing the job");
    if (r->deadlock)
        return MG_EXIT_DEADLOCK;
    if (stuck)
        return r->mismatch ? MG_EXIT_FINDINGS : MG_EXIT_SOFTWARE;
    return blind ? MG_EXIT_UNOBSERVED : 0;
}
