/* The iteration loop of `mpiguard concolic` (concolic_loop.h). */
#include "concolic_loop.h"

#include "concolic_report.h"
#include "concolic_resume.h"
#include "job.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "mg_clock.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const concolic_loop_strategy_names[] = {
    "dfs", "bounded-dfs",   "random-branch", "uniform-random",
    "cfg", "random-inputs", "random-all",    "uncovered-dfs",
    NULL};

const char *const concolic_loop_int_semantics_names[] = {"int", "bv", NULL};

const char *const concolic_loop_floats_names[] = {"real", "fp", "off", NULL};

/* Hands the run's path to the search; covered_new: the run covered arms none had before. */
static int observe(concolic_loop *L, concolic_launch_result *r, int covered_new)
{
    path_log empty = {0};
    int rc = search_session_observe(&L->search, r->have_heavy ? &r->heavy : &empty, covered_new,
                                    r->outcome == CONCOLIC_LAUNCH_INPUT_REJECTED);
    r->have_heavy = 0;
    return rc;
}

/* Makes `next` the campaign's next run (np and focus included). */
static int take_run(concolic_loop *L, search_session_run *next)
{
    concolic_campaign *c = L->c;
    int rc = concolic_campaign_set_inputs(c, next->inputs, next->ninputs);
    if (!rc) {
        c->np = next->np;
        c->focus = next->focus;
    }
    search_session_run_free(next);
    return rc;
}

/* random-all's first run: random values for more inputs than the program marks
 * (sp.restart_inputs), a random process count and focus. */
static int random_start(concolic_loop *L)
{
    concolic_campaign *c = L->c;
    search_session_run last = {c->inputs, c->ninputs, c->np, c->focus}, next;
    if (search_session_restart(&L->search, &last, c->ninputs, &L->rng, &next) ||
        take_run(L, &next)) {
        mg_log_error("out of memory");
        return MG_EXIT_SOFTWARE;
    }
    return 0;
}

/* A signal or the end of --time asks the campaign to stop. */
static int stopping(const concolic_loop_options *o)
{
    return (o->stop && *o->stop) || (o->deadline && mg_clock_seconds() >= o->deadline);
}

static int stop_requested(void *o)
{
    return stopping(o);
}

/* Asks the search for the next run (a solved negation or a restart) and makes it the
 * campaign's; a stop leaves the inputs those of the last run, so a resume repeats it. */
static int choose_next(concolic_loop *L, const concolic_loop_options *o)
{
    concolic_campaign *c = L->c;
    search_cfg cfg = concolic_cfg_table(&L->cfg, &c->covered);
    search_session_run last = {c->inputs, c->ninputs, c->np, c->focus}, next;
    int kind;
    mg_log_info("concolic: solving after run %" PRIu64, c->iterations);
    int rc = search_session_next(&L->search, &last, &c->covered, &cfg, &L->rng, stop_requested,
                                 (void *)o, &kind, &next);
    if (!rc && kind != SEARCH_SESSION_NEXT_STOPPED)
        rc = take_run(L, &next);
    L->cost.solves = L->search.solves;
    L->cost.sat = L->search.sat;
    L->cost.query_timeouts = L->search.query_timeouts;
    L->cost.restarts = L->search.restarts;
    L->cost.leaves = L->search.leaves;
    L->cost.moves = L->search.moves;
    L->cost.tuning_checks = L->search.tuning_checks;
    L->cost.repeats = L->search.repeats;
    memcpy(L->cost.repeat_cause, L->search.repeat_cause, sizeof L->cost.repeat_cause);
    L->cost.repeat_unchanged = L->search.repeat_unchanged;
    L->cost.retunes = L->search.retunes;
    L->cost.float_solutions = L->search.float_solutions;
    L->cost.float_missed = L->search.float_missed;
    return rc;
}

void concolic_loop_progress(const concolic_loop *L, int final)
{
    const concolic_campaign *c = L->c;
    const concolic_loop_last_run *r = &L->last;
    if (L->quiet || !r->np)
        return;
    if (final) { /* the last run's line is out already; a terminal's needs its end */
        if (isatty(2))
            fputc('\n', stderr);
        return;
    }
    fprintf(stderr,
            "%smpiguard: concolic: run %" PRIu64
            "  np %u focus %u  %s  %.2f s  %zu/%u arms  %zu bugs%s",
            isatty(2) ? "\r" : "", c->iterations, r->np, r->focus,
            concolic_launch_outcome_name(r->outcome), r->seconds, concolic_report_covered(c),
            2 * c->nbranches, c->nbugs, isatty(2) ? "\033[K" : "\n");
}

/* The CFG strategy's graph; a program without one is still searched, by uncovered arms only. */
static int load_cfg(concolic_loop *L, const concolic_loop_options *o)
{
    const concolic_campaign *c = L->c;
    char err[4400];
    if (L->kind != SEARCH_CFG)
        return concolic_cfg_empty(&L->cfg, c->nbranches) ? MG_EXIT_SOFTWARE : 0;
    int rc = concolic_cfg_load(&L->cfg, c->app, c->build_id, c->nbranches, err, sizeof err);
    if (rc == MG_ERROR_ENOENT && !o->distances) {
        mg_log_warn("%s; the CFG strategy goes to uncovered arms only", err);
        return 0;
    }
    if (rc)
        mg_log_error("%s", err);
    return rc == MG_ERROR_ENOENT   ? MG_EXIT_NOINPUT
           : rc == MG_ERROR_ENOMEM ? MG_EXIT_SOFTWARE
           : rc                    ? MG_EXIT_DATAERR
                                   : 0;
}

int concolic_loop_start(concolic_loop *L, concolic_campaign *c, const concolic_loop_options *o)
{
    static const int kinds[] = {
        SEARCH_DFS, SEARCH_BOUNDED_DFS,   SEARCH_RANDOM_BRANCH, SEARCH_UNIFORM_RANDOM,
        SEARCH_CFG, SEARCH_RANDOM_BRANCH, SEARCH_RANDOM_BRANCH, SEARCH_UNCOVERED_DFS};
    memset(L, 0, sizeof *L);
    L->c = c;
    L->kind = o->distances ? SEARCH_CFG : kinds[o->strategy];
    L->strategy = o->strategy;
    L->quiet = o->quiet;
    L->report_path = o->report_path;
    mg_rng_seed(&L->rng, (uint64_t)o->seed);
    int rc = load_cfg(L, o);
    if (rc || o->distances)
        return rc;
    search_session_params sp;
    search_session_params_default(&sp);
    sp.search.kind = L->kind;
    sp.z3.cancel = o->stop;
    sp.z3.semantics = o->int_semantics;
    sp.z3.floats = o->floats == CONCOLIC_LOOP_FLOATS_OFF ? SOLVER_Z3_FLOATS_REAL : o->floats;
    sp.sem.max_np = o->max_np;
    sp.fixed = o->fixed;
    sp.stall_runs = (uint32_t)o->stall;
    sp.tune = o->tune;
    sp.sem.apply_caps = o->caps;
    sp.solving = o->strategy != CONCOLIC_LOOP_STRATEGY_RANDOM_INPUTS &&
                 o->strategy != CONCOLIC_LOOP_STRATEGY_RANDOM_ALL;
    sp.restart_inputs = sp.solving ? 0 : CONCOLIC_LOOP_RANDOM_INPUTS;
    if (search_session_start(&L->search, &sp)) {
        mg_log_error("cannot start the solver");
        return MG_EXIT_SOFTWARE;
    }
    if (o->resume)
        return concolic_resume_restore(L);
    return o->strategy == CONCOLIC_LOOP_STRATEGY_RANDOM_ALL ? random_start(L) : 0;
}

void concolic_loop_end(concolic_loop *L)
{
    concolic_cfg_free(&L->cfg);
    search_session_end(&L->search);
}

/* The input values the run really used (after caps and domains), from the focus's declarations;
 * inputs must hold at least as many entries as the log declares. Returns the count. */
static size_t used_inputs(const concolic_launch_result *r, int64_t *inputs, size_t n)
{
    size_t k = 0;
    for (uint32_t v = 0; r->have_heavy && v < r->heavy.nvars; v++)
        if (!sym_var_is_mpi(r->heavy.vars[v].kind) && k < n)
            inputs[k++] = r->heavy.vars[v].value;
    return k;
}

static void account(concolic_loop *L, const concolic_launch_result *r)
{
    concolic_loop_cost *k = &L->cost;
    k->runs++;
    k->job_s += r->seconds;
    k->log_bytes += r->log_bytes;
    if (!r->split)
        return;
    k->split_runs++;
    k->launch_s += r->launch_s;
    k->run_s += r->run_s;
    k->teardown_s += r->teardown_s;
}

/* Launches the campaign's next run within what is left of --time; *ran is 0 when no run is to be
 * counted (a stop, the budget's end, a launcher that refused: that one's status is returned). */
static int run_job(concolic_loop *L, const concolic_loop_options *o, const concolic_launch *lp,
                   concolic_launch_result *r, int *ran)
{
    concolic_campaign *c = L->c;
    char err[512];
    uint64_t run_id = mg_rng_next(&L->rng) | 1;
    double timeout = lp->timeout_s, left = o->deadline ? o->deadline - mg_clock_seconds() : 0;
    double grace = JOB_STOP_GRACE_SECONDS;
    int budget_cut = o->deadline && left < timeout;
    /* The stop of a run must end with the budget too. One the budget cuts is not counted, so its
     * job is killed at once: Open MPI's mpirun would take a second more to end it. One stopped at
     * its own timeout keeps what of the grace the budget leaves, for its ranks to say where they
     * were. */
    if (budget_cut) {
        timeout = left;
        grace = 0;
    } else if (o->deadline && left - timeout < grace)
        grace = left - timeout;
    *ran = 0;
    if (stopping(o) || timeout <= 0)
        return 0;
    if (concolic_launch_run(lp, c, run_id, timeout, grace, r, err, sizeof err)) {
        mg_log_error("%s", err);
        return MG_EXIT_UNAVAILABLE;
    }
    if (r->refused || r->interrupted || (o->stop && *o->stop) || (budget_cut && r->timed_out)) {
        if (r->refused)
            mg_log_error("%s did not start the program (%s): a setup problem, not a bug in the "
                         "program; its output is in %s/run/output.txt",
                         lp->launcher, r->detail, c->dir);
        int refused = r->refused;
        concolic_launch_result_free(r);
        return refused ? MG_EXIT_UNAVAILABLE : 0;
    }
    *ran = 1;
    return 0;
}

/* Takes the run's coverage, per-rank hints, inputs used and bug (if any) into the campaign;
 * inputs holds the run's inputs and room for 64 more. Returns how many inputs the run used. */
static size_t record_run(concolic_loop *L, concolic_launch_result *r, int64_t *inputs,
                         concolic_loop_last_run run, report_doc *rep, uint64_t first_iteration)
{
    concolic_campaign *c = L->c;
    char err[512];
    account(L, r);
    L->last = run;
    c->iterations++;
    coverage_set_merge(&c->covered, &r->cover);
    /* Out of memory there only loses a hint for the focus: the campaign goes on. */
    for (uint32_t k = 0; k < r->nranks; k++)
        (void)search_session_observe_rank(&L->search, k, &r->rank_cover[k],
                                          k == run.focus && r->have_heavy);
    size_t ninputs = used_inputs(r, inputs, c->ninputs + 64);
    if (ninputs > c->ninputs)
        concolic_campaign_set_inputs(c, inputs, ninputs);
    else
        ninputs = c->ninputs;
    if (concolic_report_bug(c, r, inputs, ninputs, run.np, run.focus, c->iterations, rep) && rep &&
        L->report_path)
        report_write(rep, L->report_path, err, sizeof err);
    if (r->log_problem[0] && c->iterations == first_iteration + 1)
        mg_log_warn("%s (the run gave no constraints)", r->log_problem);
    return ninputs;
}

int concolic_loop_iterate(concolic_loop *L, const concolic_loop_options *o,
                          const concolic_launch *lp, report_doc *rep, uint64_t first_iteration)
{
    concolic_campaign *c = L->c;
    concolic_launch_result r;
    concolic_loop_last_run run = {c->np, c->focus, 0, 0};
    int ran, rc = run_job(L, o, lp, &r, &ran);
    if (rc || !ran)
        return rc;
    int64_t *inputs = calloc(c->ninputs + 64, sizeof *inputs);
    if (!inputs) {
        concolic_launch_result_free(&r);
        return MG_EXIT_SOFTWARE;
    }
    memcpy(inputs, c->inputs, c->ninputs * sizeof *inputs);
    run.outcome = r.outcome;
    run.seconds = r.seconds;
    size_t covered_before = c->covered.n;
    size_t ninputs = record_run(L, &r, inputs, run, rep, first_iteration);
    rc = observe(L, &r, c->covered.n > covered_before);
    double t0 = mg_clock_seconds();
    if (!rc)
        rc = choose_next(L, o);
    double solve_s = mg_clock_seconds() - t0;
    L->cost.solve_s += solve_s;
    concolic_report_run(c, &r, inputs, ninputs, run.np, run.focus, solve_s);
    free(inputs);
    concolic_launch_result_free(&r);
    if (rc)
        return MG_EXIT_SOFTWARE;
    concolic_resume_save(L);
    concolic_campaign_save(c);
    concolic_loop_progress(L, 0);
    return 0;
}

/* After the loop: the saved state of a stopped campaign, the coverage and cost reports, the
 * JSON report. Returns rc, or the report's write error when rc is 0. */
static int report_campaign(concolic_loop *L, const concolic_loop_options *o, report_doc *rep,
                           double t0, uint64_t first, int rc)
{
    concolic_campaign *c = L->c;
    if (o->stop && *o->stop) {
        /* Saved already after each run; a campaign stopped in its first run has it here. */
        concolic_resume_save(L);
        concolic_campaign_save(c);
        mg_log_warn("stopped by signal %d after %" PRIu64 " runs; the campaign is saved: --resume "
                    "continues it",
                    (int)*o->stop, c->iterations - first);
    }
    concolic_loop_progress(L, 1);
    if (!o->quiet && !(rc && c->iterations == first)) {
        concolic_report_coverage(c, stdout);
        concolic_report_cost(&L->cost, mg_clock_seconds() - t0, stdout);
    }
    concolic_report_data(rep, c, &L->cost);
    char err[512];
    if (o->report_path && report_write(rep, o->report_path, err, sizeof err)) {
        mg_log_error("%s", err);
        rc = rc ? rc : MG_EXIT_CANTCREAT;
    }
    return rc;
}

int concolic_loop_run(concolic_campaign *c, const concolic_loop_options *o,
                      const concolic_launch *lp, report_doc *rep)
{
    if (!o->resume)
        concolic_report_runs_restart(c);
    concolic_loop L;
    int rc = concolic_loop_start(&L, c, o);
    if (rc) {
        concolic_loop_end(&L);
        return rc;
    }
    double t0 = mg_clock_seconds();
    uint64_t first = c->iterations;
    concolic_loop_options run = *o;
    run.deadline = o->time_s ? t0 + o->time_s : 0;
    while (!rc && !(o->stop && *o->stop) &&
           (!o->iterations || c->iterations - first < (uint64_t)o->iterations) &&
           (!o->time_s || mg_clock_seconds() < run.deadline))
        rc = concolic_loop_iterate(&L, &run, lp, rep, first);
    rc = report_campaign(&L, o, rep, t0, first, rc);
    concolic_loop_end(&L);
    return rc;
}
