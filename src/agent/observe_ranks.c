/* The ranks a tool observes (observe_ranks.h). */
#include "observe_ranks.h"

#include "mg_clock.h"
#include "mg_error.h"
#include "mg_log.h"
#include "rank_sight.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct observed_rank {
    int pid;         /* as the latest scan saw it: a wrapper script may exec or fork the program */
    double found_at; /* 0 until found; again when its executable changed (rank_observe_input.age) */
    int published;   /* once published, for good (a segment is removed at the job's end) */
    double published_at;
    int ended;
    int unsure; /* not published, as far as known yet (observe_ranks_published_fn's -1) */
    int remote; /* judged on its node (observe_ranks_remote), never here */
    int told;   /* its first verdict went to on_verdict (a pending one too: who owns it) */
    rank_observe_sight sight;
    rank_observe_cause cause;
    char detail[512];
} observed_rank;

struct observe_ranks {
    job_session *js;
    observe_ranks_published_fn published;
    void *ctx;
    observe_ranks_verdict_fn on_verdict;
    void *verdict_ctx;
    observed_rank *ranks;
    int nranks;
    double started_at, looked_at;
    int stopped;     /* observe_ranks_job_stopped */
    int node_agents; /* observe_ranks_node_agents */
};

int observe_ranks_by_state(void *ctx, int rank)
{
    const job_session *js = ctx;
    return js->ranks[rank].state != NULL;
}

observe_ranks *observe_ranks_create(job_session *js, observe_ranks_published_fn published,
                                    void *ctx)
{
    observe_ranks *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    *o = (observe_ranks){
        .js = js, .published = published, .ctx = ctx, .started_at = mg_clock_seconds()};
    return o;
}

void observe_ranks_destroy(observe_ranks *o)
{
    if (o)
        free(o->ranks);
    free(o);
}

static int size_table(observe_ranks *o)
{
    if (o->ranks || o->js->nranks == 0)
        return o->ranks != NULL;
    o->ranks = calloc((size_t)o->js->nranks, sizeof *o->ranks);
    if (o->ranks)
        o->nranks = o->js->nranks;
    return o->ranks != NULL;
}

static int decided(const observed_rank *k)
{
    return k->cause != RANK_OBSERVE_PENDING && k->cause != RANK_OBSERVE_OK;
}

/* The pids of ranks still to be judged, from a fresh scan: a wrapper between the launcher and the
 * program may have forked it since the session noted the rank. */
static void rescan(observe_ranks *o)
{
    rank_scan_proc *procs;
    size_t n;
    if (rank_scan("/proc", &o->js->selector, &procs, &n) != MG_ERROR_OK)
        return;
    for (size_t i = 0; i < n; i++)
        if (procs[i].rank >= 0 && procs[i].rank < o->nranks)
            o->ranks[procs[i].rank].pid = procs[i].pid;
    free(procs);
}

static void read_published(observe_ranks *o, double now)
{
    for (int r = 0; r < o->nranks; r++) {
        observed_rank *k = &o->ranks[r];
        if (!k->pid && o->js->ranks[r].pid)
            k->pid = o->js->ranks[r].pid;
        if (k->pid && !k->found_at)
            k->found_at = now;
        int published = o->published ? o->published(o->ctx, r) : 0;
        k->unsure = published < 0;
        if (published > 0 && !k->published) {
            k->published_at = now;
            k->published = 1;
        }
    }
}

static void judge(observe_ranks *o, int r, double now, int job_ended, double sibling_published_for,
                  int *newly_blind)
{
    observed_rank *k = &o->ranks[r];
    if (decided(k) || !k->found_at || k->remote)
        return;
    rank_observe_cause before = k->cause;
    /* read while the process lives; a reading of a process that ended is kept */
    if (!k->ended && k->pid && (!k->sight.read || (!k->published && k->cause != RANK_OBSERVE_OK))) {
        rank_observe_sight fresh;
        if (rank_sight_read("/proc", k->pid, o->js->library, &fresh) == MG_ERROR_OK) {
            /* a wrapper exec'd (or forked) the program: its loader's time starts again */
            if (k->sight.read && strcmp(fresh.exe, k->sight.exe) != 0)
                k->found_at = now;
            k->sight = fresh;
        } else
            k->ended = 1;
    }
    /* gone before its records came: what it published is known once the streams end */
    if (k->ended && !k->published && k->unsure && !job_ended)
        return;
    rank_observe_input in = {.sight = &k->sight,
                             .expected = o->js->flavor,
                             .published = k->published,
                             .sibling_published_for = sibling_published_for,
                             .age = now - k->found_at,
                             .ended = k->ended || job_ended,
                             .stopped = o->stopped,
                             .by_stack = !o->published,
                             .node_agents = o->node_agents};
    k->cause = rank_observe_decide(&in);
    rank_observe_explain(&in, k->cause, k->detail, sizeof k->detail);
    if (o->on_verdict && (k->cause != before || !k->told))
        o->on_verdict(o->verdict_ctx, r, k->pid, k->cause, k->detail);
    k->told = 1;
    if (!decided(k))
        return;
    /* a rank that ended on its own is named, but there is nothing left to stop or to sample: the
     * job's end tells the rest (a program that never called MPI_Init keeps its own status) */
    if (!k->ended)
        ++*newly_blind;
    if (!o->on_verdict)
        fprintf(stderr, "mpiguard: %s: rank %d (pid %d) is not observed: %s\n", o->js->tool, r,
                k->pid, k->detail);
}

void observe_ranks_on_verdict(observe_ranks *o, observe_ranks_verdict_fn fn, void *ctx)
{
    o->on_verdict = fn;
    o->verdict_ctx = ctx;
}

void observe_ranks_node_agents(observe_ranks *o)
{
    o->node_agents = 1;
}

void observe_ranks_job_stopped(observe_ranks *o)
{
    o->stopped = 1;
}

int observe_ranks_remote(observe_ranks *o, int r, int pid, const char *node,
                         rank_observe_cause cause, const char *detail)
{
    if (!size_table(o) || r < 0 || r >= o->nranks || decided(&o->ranks[r]))
        return 0;
    observed_rank *k = &o->ranks[r];
    k->remote = 1;
    k->pid = pid ? pid : k->pid;
    k->found_at = k->found_at ? k->found_at : mg_clock_seconds();
    /* the node's agent saw the rank end, not why: it may have been this tool's stop */
    if (o->stopped && !(o->published && o->published(o->ctx, r) > 0) &&
        rank_observe_stopped(cause) != cause) {
        cause = rank_observe_stopped(cause);
        rank_observe_input in = {.sight = &k->sight};
        rank_observe_explain(&in, cause, k->detail, sizeof k->detail);
    } else
        snprintf(k->detail, sizeof k->detail, "%s", detail);
    k->cause = cause;
    if (!decided(k))
        return 0;
    fprintf(stderr, "mpiguard: %s: rank %d (pid %d on %s) is not observed: %s\n", o->js->tool, r,
            k->pid, node, k->detail);
    return 1;
}

int observe_ranks_update(observe_ranks *o, int job_ended)
{
    double now = mg_clock_seconds();
    if ((!job_ended && now - o->looked_at < OBSERVE_RANKS_PERIOD_S) || !size_table(o))
        return 0;
    o->looked_at = now;
    read_published(o, now);
    int undecided = 0;
    for (int r = 0; r < o->nranks; r++)
        undecided += !o->ranks[r].published && o->ranks[r].cause == RANK_OBSERVE_PENDING;
    if (undecided && !job_ended)
        rescan(o);
    int newly_blind = 0;
    for (int r = 0; r < o->nranks; r++) {
        double sibling_published_for = -1;
        for (int k = 0; k < o->nranks; k++)
            if (k != r && o->ranks[k].published &&
                now - o->ranks[k].published_at > sibling_published_for)
                sibling_published_for = now - o->ranks[k].published_at;
        judge(o, r, now, job_ended, sibling_published_for, &newly_blind);
    }
    return newly_blind;
}

rank_observe_cause observe_ranks_cause(const observe_ranks *o, int r)
{
    return r >= 0 && r < o->nranks ? o->ranks[r].cause : RANK_OBSERVE_PENDING;
}

int observe_ranks_blind(const observe_ranks *o)
{
    int n = 0;
    for (int r = 0; r < o->nranks; r++)
        n += decided(&o->ranks[r]);
    return n;
}

int observe_ranks_observed(const observe_ranks *o)
{
    int n = 0;
    for (int r = 0; r < o->nranks; r++)
        n += o->ranks[r].cause == RANK_OBSERVE_OK;
    return n;
}

int observe_ranks_settled(const observe_ranks *o)
{
    if (o->nranks == 0 || mg_clock_seconds() - o->started_at < RANK_OBSERVE_INIT_GRACE_S)
        return 0;
    for (int r = 0; r < o->nranks; r++)
        if (o->ranks[r].cause == RANK_OBSERVE_PENDING)
            return 0;
    return 1;
}

int observe_ranks_settling(const observe_ranks *o)
{
    double now = mg_clock_seconds();
    for (int r = 0; r < o->nranks; r++) {
        const observed_rank *k = &o->ranks[r];
        if (k->cause == RANK_OBSERVE_PENDING && k->found_at && !k->ended && !k->remote &&
            now - k->found_at < OBSERVE_RANKS_SETTLING_S)
            return 1;
    }
    return 0;
}

int observe_ranks_verdict(const observe_ranks *o, int r, const char **cause, const char **detail)
{
    if (r >= o->nranks)
        return 0;
    const observed_rank *k = &o->ranks[r];
    int found = k->found_at > 0;
    *cause = found ? rank_observe_cause_name(k->cause) : "not_found";
    *detail = k->cause == RANK_OBSERVE_OK ? NULL
              : found                     ? k->detail
                      : "never found: it ended before a scan saw it, or never started";
    return 1;
}
