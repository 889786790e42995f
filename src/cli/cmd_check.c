/* `mpiguard check`: runs a job with the capture module, drains the ranks' event rings into the
 * deadlock detector, runs the wait-for analysis on its triggers, reports deadlocks, potential
 * deadlocks and collective mismatches, and stops a deadlocked job (design/check.md; docs/check.md).
 */
#include "check_agent.h"
#include "check_agent_proc.h"
#include "check_findings.h"
#include "check_remote.h"
#include "cli.h"
#include "deadlock_detector.h"
#include "event_ring.h"

#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const on_deadlock_choices[] = {"kill", "report", NULL};
static const char *const wildcard_choices[] = {"probe", "decide", NULL};

/* Records drained per poll before the triggers are looked at again. */
#define CHECK_POLL_RECORDS 65536
/* "Every live process blocked" fires once no record came for this long (a short settle, so a
 * rank between two calls is not taken for blocked). */
#define CHECK_SETTLE_NS 200000000ULL

typedef struct check_options {
    int on_deadlock, buffered_sends, wildcards;
    double quiet_time;
    long agents;
    /* The agent process mode (started by --agents, not for users). */
    const char *agent_connect, *agent_token;
    long agent_share, agent_shares;
} check_options;

/* A collective mismatch in the report: the detector's finding, the report's entry, and the calls
 * it named when written. */
typedef struct reported_mismatch {
    size_t finding, entry, calls;
} reported_mismatch;

typedef struct check_run {
    cli_session *s;
    const check_options *o;
    check_agent *agent;   /* in-process agent (no --agents) */
    check_remote *remote; /* agent processes over TCP (--agents N) */
    mg_job **agent_jobs;
    deadlock_detector *det;
    int world;             /* world size, once the first ring or agent told it */
    uint64_t *blocked;     /* remote: each rank's blocked seq as its agent last reported */
    uint8_t *captured;     /* ranks that sent at least one record */
    uint8_t *ended;        /* ranks whose stream ended */
    uint64_t *rank_records; /* records seen per rank */
    /* A deadlock found but not confirmed yet: its index among the detector's findings, the
     * records its ranks had sent then (any new one means a rank moved on), and since when. */
    int pending;
    size_t pending_index;
    uint64_t pending_mark, pending_since;
    uint64_t lost_ended;   /* records dropped by writers whose stream ended */
    site_resolver *sites;
    uint64_t last_record, last_check_records;
    size_t held_at_check, reported;
    uint64_t feed_errors;
    int stream_ended; /* a rank's stream ended since the last analysis: a reason to look again */
    uint64_t *signatures; /* of the findings reported, so one found again is not repeated */
    size_t nsignatures;
    /* Rewritten when a later caller of their collective joins them: the report names every caller
     * however late its record came. */
    reported_mismatch *mismatches;
    size_t nmismatches;
    int deadlock, findings, mismatch, failed;
    int broken; /* the detector refused records or failed an analysis: its view is incomplete */
} check_run;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
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

static void write_svg(void)
{
    const char *path = cli_opts.report_path;
    if (!path || access("/usr/bin/dot", X_OK) != 0)
        return;
    char dot[4096], svg[4096];
    size_t len = strlen(path);
    size_t base = len > 5 && strcmp(path + len - 5, ".json") == 0 ? len - 5 : len;
    snprintf(dot, sizeof dot, "%.*s.dot", (int)base, path);
    snprintf(svg, sizeof svg, "%.*s.svg", (int)base, path);
    mg_report *rep;
    char err[256];
    if (mg_report_load(path, &rep, err, sizeof err) != MG_OK)
        return;
    FILE *out = fopen(dot, "w");
    if (out) {
        mg_report_render_dot(rep, out);
        fclose(out);
        char *argv[] = {"dot", "-Tsvg", "-o", svg, dot, NULL};
        mg_job *job;
        if (mg_job_start(argv, NULL, &job, err, sizeof err) == MG_OK) {
            int done = 0;
            while (!done && mg_job_wait(job, 1000, &done) == MG_OK)
                ;
            mg_job_destroy(job);
        }
        unlink(dot);
    }
    mg_report_destroy(rep);
}

/* Kind, ranks, calls and call sites of a finding, hashed. */
static uint64_t signature_of(const dl_finding *f)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ f->kind;
    for (size_t i = 0; i < f->n_calls; i++) {
        const dl_call *c = &f->calls[i];
        uint64_t v[3] = {(uint64_t)(uint32_t)c->rank, c->func, c->callsite};
        for (int k = 0; k < 3; k++)
            h = (h ^ v[k]) * 0x100000001b3ULL;
    }
    return h;
}

/* 1 when an identical finding was reported already (the detector may find a potential deadlock
 * again in a later analysis once the buffered sends were released); else records it. */
static int seen_before(check_run *r, const dl_finding *f)
{
    uint64_t sig = signature_of(f);
    for (size_t i = 0; i < r->nsignatures; i++)
        if (r->signatures[i] == sig)
            return 1;
    uint64_t *grown = realloc(r->signatures, (r->nsignatures + 1) * sizeof *grown);
    if (grown) {
        r->signatures = grown;
        r->signatures[r->nsignatures++] = sig;
    }
    return 0;
}

/* Keeps track of a collective mismatch just written as report entry `entry`. */
static void track_mismatch(check_run *r, size_t finding, size_t entry, size_t calls)
{
    reported_mismatch *grown = realloc(r->mismatches, (r->nmismatches + 1) * sizeof *grown);
    if (grown) {
        r->mismatches = grown;
        r->mismatches[r->nmismatches++] = (reported_mismatch){finding, entry, calls};
    }
}

/* Rewrites the reported collective mismatches that later callers joined. Returns how many. */
static size_t refresh_mismatches(check_run *r, const dl_finding *fs, uint64_t lost)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nmismatches; i++) {
        reported_mismatch *m = &r->mismatches[i];
        const dl_finding *f = &fs[m->finding];
        mg_finding *out;
        if (f->n_calls == m->calls ||
            !(out = check_finding_replace(r->s->report, m->entry, f, r->sites, lost)))
            continue;
        m->calls = f->n_calls;
        n++;
        json_object *summary;
        if (json_object_object_get_ex(out, "summary", &summary))
            mg_info("check: later callers joined a collective mismatch: %s",
                    json_object_get_string(summary));
    }
    return n;
}

/* Reports the findings the detector added since the last call. Returns 1 when a deadlock was
 * confirmed. ended: the job is over (nothing to confirm against). */
static int report_new(check_run *r, int ended)
{
    size_t n;
    const dl_finding *fs = deadlock_detector_findings(r->det, &n);
    uint64_t lost = r->lost_ended;
    if (r->agent) {
        check_agent_stats st;
        check_agent_stats_get(r->agent, &st);
        lost = st.lost;
    }
    int deadlock = 0;
    size_t written = refresh_mismatches(r, fs, lost);
    for (; r->reported < n; r->reported++) {
        const dl_finding *f = &fs[r->reported];
        int stops = f->kind == DL_DEADLOCK || f->kind == DL_STUCK_ON_TERMINATED;
        if (stops && !ended && !confirmed(r, f)) {
            if (keep_pending(r, r->reported, f))
                break; /* looked at again at the next poll; later findings wait behind it */
            continue;
        }
        r->pending = 0;
        if (seen_before(r, f))
            continue;
        written++;
        mg_finding *out = check_finding_add(r->s->report, f, r->sites, lost);
        if (out)
            mg_finding_print_banner(out, stderr);
        if (out && f->kind == DL_COLLECTIVE_MISMATCH)
            track_mismatch(r, r->reported, mg_report_finding_count(r->s->report) - 1, f->n_calls);
        if (stops && !ended)
            deadlock = 1;
        else
            r->findings = 1;
        r->mismatch |= f->kind == DL_COLLECTIVE_MISMATCH;
    }
    if (written && cli_session_save(r->s) == 0)
        write_svg();
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

static void record_tool_data(check_run *r)
{
    json_object *data = mg_report_tool_data(r->s->report);
    check_agent_stats st = {.lost = r->lost_ended};
    if (r->agent)
        check_agent_stats_get(r->agent, &st);
    int captured = 0;
    for (int k = 0; k < r->world; k++)
        captured += r->captured[k];
    dl_queue_sizes q = {0};
    if (r->det)
        deadlock_detector_queue_sizes(r->det, &q);
    json_object_object_add(data, "world_size", json_object_new_int(r->world));
    json_object_object_add(data, "ranks_captured", json_object_new_int(captured));
    json_object_object_add(data, "agents", json_object_new_int(r->agent ? 0 : (int)r->o->agents));
    json_object_object_add(data, "records", json_object_new_int64((int64_t)q.records));
    json_object_object_add(data, "records_lost", json_object_new_int64((int64_t)st.lost));
    json_object_object_add(data, "records_invalid", json_object_new_int64((int64_t)st.invalid));
    json_object_object_add(data, "records_rejected", json_object_new_int64((int64_t)r->feed_errors));
    json_object_object_add(data, "full_ring_waits", json_object_new_int64((int64_t)st.full_waits));
    json_object_object_add(data, "forced_decisions", json_object_new_int64((int64_t)q.forced_decisions));
    json_object_object_add(data, "buffered_sends", json_object_new_boolean(r->o->buffered_sends));
    json_object_object_add(data, "wildcards", json_object_new_string(wildcard_choices[r->o->wildcards]));
    if (st.lost)
        mg_warn("check: %llu records were lost (full rings): findings may be missing or wrong",
                (unsigned long long)st.lost);
}

/* Watches the job until it ends, a deadlock is confirmed, or it hangs after reported errors.
 * Returns the finding status: MG_EXIT_DEADLOCK, MG_EXIT_FINDINGS (stopped after a mismatch),
 * MG_EXIT_SOFTWARE (stopped after the analysis failed) or 0. */
static int watch(check_run *r)
{
    r->last_record = now_ns();
    int ended = 0, stuck = 0;
    while (!ended && !r->failed) {
        ended = cli_session_wait(r->s, r->agent ? 20 : 0);
        cli_session_discover(r->s);
        drain(r, 20);
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
            mg_job_stop(r->s->job);
            while (!cli_session_wait(r->s, 1000))
                ;
            stuck = 1;
            break;
        }
    }
    drain(r, 0);
    /* Agent processes end once their ranks' streams ended: what they still send is the end of
     * the job (bounded, so a lost agent cannot hold mpiguard). */
    for (uint64_t until = now_ns() + 5000000000ULL; r->remote && !check_remote_done(r->remote) &&
                                                     now_ns() < until;)
        drain(r, 100);
    if (!r->deadlock)
        check_now(r, 1);
    record_tool_data(r);
    if (r->failed)
        mg_error("check: out of memory while analysing the job");
    if (r->deadlock)
        return MG_EXIT_DEADLOCK;
    return !stuck ? 0 : r->mismatch ? MG_EXIT_FINDINGS : MG_EXIT_SOFTWARE;
}

/* Starts n agent processes, each owning rank % n == k, streaming to a loopback listener. */
static int start_agents(check_run *r, int n)
{
    int port;
    char exe[4096], address[64], share[16], shares[16];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0 || check_remote_listen(n, &r->remote, &port) != MG_OK ||
        !(r->agent_jobs = calloc((size_t)n, sizeof *r->agent_jobs)))
        return MG_ESYS;
    exe[len] = '\0';
    snprintf(address, sizeof address, "127.0.0.1:%d", port);
    snprintf(shares, sizeof shares, "%d", n);
    for (int k = 0; k < n; k++) {
        snprintf(share, sizeof share, "%d", k);
        char *argv[] = {exe, "check", "--agent-connect", address, "--agent-share", share,
                        "--agent-shares", shares, "--agent-token", r->s->token, NULL};
        char err[256];
        if (mg_job_start(argv, NULL, &r->agent_jobs[k], err, sizeof err) != MG_OK) {
            mg_error("check: %s", err);
            return MG_ESYS;
        }
    }
    return MG_OK;
}

static void stop_agents(check_run *r)
{
    for (long k = 0; r->agent_jobs && k < r->o->agents; k++)
        mg_job_destroy(r->agent_jobs[k]);
    free(r->agent_jobs);
    check_remote_destroy(r->remote);
}

int cmd_check(int argc, char **argv)
{
    static const char usage[] = "mpiguard check [options] -- <launcher> <args>";
    check_options o = {.quiet_time = 1.0, .agent_shares = 1};
    const mg_option options[] = {
        {"on-deadlock", 0, MG_OPT_CHOICE, &o.on_deadlock, "kill|report",
         "stop the job on a confirmed deadlock (kill, default) or only report it", on_deadlock_choices, 0, 0},
        {"quiet-time", 0, MG_OPT_DOUBLE, &o.quiet_time, "SECONDS",
         "analyse when no new call was seen for this long (default 1)", NULL, 0.05, 3600},
        {"buffered-sends", 0, MG_OPT_FLAG, &o.buffered_sends, NULL,
         "treat standard-mode sends as buffered (no potential deadlocks from them)", NULL, 0, 0},
        {"wildcards", 0, MG_OPT_CHOICE, &o.wildcards, "probe|decide",
         "wildcard receives without a decision: explore the matches (probe, default) or also "
         "force one when queues grow (decide; may give false positives)", wildcard_choices, 0, 0},
        {"agents", 0, MG_OPT_INT, &o.agents, "N",
         "drain the rings with N agent processes streaming over TCP (loopback), as on several "
         "nodes; default 0: in mpiguard itself", NULL, 0, 256},
        {"agent-connect", 0, MG_OPT_STRING, &o.agent_connect, "HOST:PORT",
         "(internal) run as an agent process streaming to the detector at HOST:PORT", NULL, 0, 0},
        {"agent-share", 0, MG_OPT_INT, &o.agent_share, "K", "(internal) the agent's share", NULL, 0, 255},
        {"agent-shares", 0, MG_OPT_INT, &o.agent_shares, "N", "(internal) number of agents", NULL, 1, 256},
        {"agent-token", 0, MG_OPT_STRING, &o.agent_token, "TOKEN", "(internal) the job's token", NULL, 0, 0},
        {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0},
    };
    mg_parsed_args args;
    int done;
    int rc = cli_parse(usage,
                       "Run an MPI job and check it while it runs: deadlocks (MUST's wait-for graphs\n"
                       "and OR-knots), potential deadlocks hidden by buffering, collective mismatches.\n"
                       "A confirmed deadlock stops the job (exit 82).",
                       options, argc, argv, 0, NULL, 0, &args, &done);
    if (rc || done)
        return rc;
    if (o.agent_connect) {
        if (!o.agent_token || args.command) {
            mg_error("--agent-connect needs --agent-token and no command");
            return MG_EXIT_USAGE;
        }
        return check_agent_proc_run(o.agent_token, (int)o.agent_share, (int)o.agent_shares,
                                    o.agent_connect);
    }
    if (!args.command || args.ncommand == 0) {
        mg_error("missing '--' and the launcher command");
        fprintf(stderr, "usage: %s\n", usage);
        return MG_EXIT_USAGE;
    }
    cli_session s;
    if ((rc = cli_session_start(&s, "check", "capture", args.command, args.ncommand)))
        return rc;
    check_run r = {.s = &s, .o = &o};
    rc = site_resolver_create(&r.sites);
    if (rc == MG_OK)
        rc = o.agents ? start_agents(&r, (int)o.agents) : check_agent_create(s.token, 0, 1, &r.agent);
    if (rc != MG_OK) {
        mg_error("check: cannot start the agents: %s", mg_strerror(rc));
        mg_job_stop(s.job);
        stop_agents(&r);
        site_resolver_destroy(r.sites);
        return cli_session_finish(&s, MG_EXIT_SOFTWARE);
    }
    int status = watch(&r);
    if (!status && !r.findings && !cli_opts.quiet && !mg_job_interrupting_signal(s.job))
        fprintf(stderr, "mpiguard: check: no deadlock or usage error found\n");
    deadlock_detector_destroy(r.det);
    check_agent_destroy(r.agent);
    stop_agents(&r);
    check_agent_remove_rings(s.token);
    site_resolver_destroy(r.sites);
    free(r.blocked);
    free(r.captured);
    free(r.ended);
    free(r.rank_records);
    free(r.signatures);
    free(r.mismatches);
    /* Findings that did not stop the job leave its outcome as it was; a job that then ended 0
     * exits MG_EXIT_FINDINGS. */
    rc = cli_session_finish(&s, status);
    return !status && r.findings && rc == 0 ? MG_EXIT_FINDINGS : rc;
}
