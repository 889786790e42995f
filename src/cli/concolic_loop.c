/* The iteration loop of `mpiguard concolic` (concolic_loop.h). */
#include "concolic_loop.h"

#include "cli.h"
#include "concolic_report.h"
#include "concolic_resume.h"
#include "focus_select.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "solver_query.h"
#include "mg_clock.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const concolic_strategy_names[] = {"dfs",           "bounded-dfs", "random-branch",
                                               "uniform-random", "cfg",        "random-inputs",
                                               "random-all",     NULL};

/* Stores the new path's log at the stack level the strategy keeps it at (DFS: above the level
 * of the choice that produced it; the others: alone), releasing the levels above. */
static int keep_path(concolic_loop *L, path_log *log, uint32_t level)
{
    if (level == SEARCH_DISCARDED) {
        path_log_free(log);
        return 0;
    }
    while (L->nstack > level)
        path_log_free(&L->stack[--L->nstack]);
    if (L->nstack < level) /* the two stacks disagree: a bug, not a state to go on from */
        return MG_ESTATE;
    path_log *s = realloc(L->stack, (L->nstack + 1) * sizeof *s);
    if (!s)
        return MG_ENOMEM;
    L->stack = s;
    L->stack[L->nstack++] = *log;
    memset(log, 0, sizeof *log);
    return 0;
}

/* Reports the run's path to the strategy; covered_new: the run covered arms none had before. */
static int observe(concolic_loop *L, concolic_result *r, int covered_new)
{
    path_log empty = {0};
    path_log *log = r->have_heavy ? &r->heavy : &empty;
    search_step *steps = calloc(log->nbranches + 1, sizeof *steps);
    if (!steps)
        return MG_ENOMEM;
    for (uint32_t i = 0; i < log->nbranches; i++)
        steps[i] = (search_step){log->branches[i].branch_id, log->branches[i].taken};
    uint32_t level;
    int rc = search_observe_run(L->search, steps, log->nbranches, covered_new, &level);
    free(steps);
    if (!rc)
        rc = keep_path(L, log, level);
    r->have_heavy = 0;
    path_log_free(log);
    return rc;
}

/* Fresh random inputs, process count and focus: the start of a new search tree. */
static void fresh_inputs(concolic_loop *L, const concolic_options *o)
{
    concolic_campaign *c = L->c;
    for (size_t i = 0; i < c->ninputs; i++)
        c->inputs[i] = (int64_t)mg_rng_below(&L->rng, 201) - 100;
    if (o->fixed)
        return;
    c->np = 1 + (uint32_t)mg_rng_below(&L->rng, (uint64_t)o->max_np);
    c->focus = (uint32_t)mg_rng_below(&L->rng, c->np);
    L->cost.restarts++;
}

/* random-all's first run: random values for more inputs than the program marks, a random
 * process count and focus. */
static int random_start(concolic_loop *L, const concolic_options *o)
{
    int64_t zero[CONCOLIC_RANDOM_START_INPUTS] = {0};
    if (concolic_campaign_set_inputs(L->c, zero, CONCOLIC_RANDOM_START_INPUTS)) {
        mg_error("out of memory");
        return MG_EXIT_SOFTWARE;
    }
    fresh_inputs(L, o);
    L->trim_inputs = 1;
    return 0;
}

/* Inputs of the next run from solved values: the i-th non-MPI variable is input i. */
static void take_values(concolic_loop *L, const path_log *log, const int64_t *values,
                        focus_setup next)
{
    concolic_campaign *c = L->c;
    size_t n = 0;
    for (uint32_t v = 0; v < log->nvars; v++)
        n += !sym_var_is_mpi(log->vars[v].kind);
    int64_t *in = calloc((n > c->ninputs ? n : c->ninputs) + 1, sizeof *in);
    if (!in)
        return;
    memcpy(in, c->inputs, c->ninputs * sizeof *in);
    size_t k = 0;
    for (uint32_t v = 0; v < log->nvars; v++)
        if (!sym_var_is_mpi(log->vars[v].kind))
            in[k++] = values[v];
    concolic_campaign_set_inputs(c, in, n > c->ninputs ? n : c->ninputs);
    free(in);
    if (L->fixed)
        return;
    c->np = next.np;
    c->focus = next.focus;
}

/* A signal or the end of --time asks the campaign to stop. */
static int stopping(const concolic_options *o)
{
    return (o->stop && *o->stop) || (o->deadline && mg_clock_seconds() >= o->deadline);
}

/* Asks the strategy for constraints until one solves, or restarts from fresh inputs. Returns
 * the seconds spent solving. */
static double choose_next(concolic_loop *L, const concolic_options *o)
{
    concolic_campaign *c = L->c;
    double spent = 0;
    search_cfg cfg = concolic_cfg_table(&L->cfg, &c->covered);
    int solving = o->strategy != CONCOLIC_STRATEGY_RANDOM_INPUTS &&
                  o->strategy != CONCOLIC_STRATEGY_RANDOM_ALL;
    for (int tries = 0; solving && tries < 100000; tries++) {
        if (stopping(o))
            return spent; /* the inputs stay those of the last run: a resume repeats it */
        search_choice ch;
        if (search_next(L->search, &c->covered, &cfg, &L->rng, &ch) || ch.exhausted ||
            ch.level >= L->nstack)
            break;
        const path_log *log = &L->stack[ch.level];
        int64_t *values = calloc(log->nvars + 1, sizeof *values);
        if (!values)
            break;
        int sat = 0;
        double t0 = mg_clock_seconds();
        int rc = solver_query_solve(L->z3, log, ch.index, &L->sem, &sat, values);
        spent += mg_clock_seconds() - t0;
        L->cost.solves++;
        L->cost.query_timeouts += rc == MG_ETIMEOUT && !stopping(o);
        focus_setup prev = {log->header.world_size, log->header.rank}, next;
        int solved = 0;
        if (!rc && sat &&
            !focus_select(log->vars, log->nvars, log->comms, log->ncomms, &prev, values, &next,
                          &solved) &&
            next.np <= (uint32_t)o->max_np) {
            L->cost.sat++;
            /* The solution names no rank: focus a rank that reaches the coverage frontier
             * (focus_frontier.h) rather than staying where the negated path was. */
            if (!solved)
                next.focus = focus_frontier_pick(&L->frontier, &c->covered, next.np, next.focus);
            take_values(L, log, values, next);
            free(values);
            return spent;
        }
        free(values);
    }
    fresh_inputs(L, o);
    return spent;
}

void concolic_loop_progress(const concolic_loop *L, int final)
{
    const concolic_campaign *c = L->c;
    const concolic_last_run *r = &L->last;
    if (cli_opts.quiet || !r->np)
        return;
    if (final) { /* the last run's line is out already; a terminal's needs its end */
        if (isatty(2))
            fputc('\n', stderr);
        return;
    }
    fprintf(stderr, "%smpiguard: concolic: run %" PRIu64 "  np %u focus %u  %s  %.2f s  %zu/%u arms  %zu bugs%s",
            isatty(2) ? "\r" : "", c->iterations, r->np, r->focus,
            concolic_outcome_name(r->outcome), r->seconds, concolic_report_covered(c),
            2 * c->nbranches, c->nbugs, isatty(2) ? "\033[K" : "\n");
}

/* The CFG strategy's graph; a program without one is still searched, by uncovered arms only. */
static int load_cfg(concolic_loop *L, const concolic_options *o)
{
    const concolic_campaign *c = L->c;
    char err[4400];
    if (L->kind != SEARCH_CFG)
        return concolic_cfg_empty(&L->cfg, c->nbranches) ? MG_EXIT_SOFTWARE : 0;
    int rc = concolic_cfg_load(&L->cfg, c->app, c->build_id, c->nbranches, err, sizeof err);
    if (rc == MG_ENOENT && !o->distances) {
        mg_warn("%s; the CFG strategy goes to uncovered arms only", err);
        return 0;
    }
    if (rc)
        mg_error("%s", err);
    return rc == MG_ENOENT ? MG_EXIT_NOINPUT : rc == MG_ENOMEM ? MG_EXIT_SOFTWARE
           : rc                                                 ? MG_EXIT_DATAERR
                                                                : 0;
}

int concolic_loop_start(concolic_loop *L, concolic_campaign *c, const concolic_options *o)
{
    static const int kinds[] = {SEARCH_DFS,           SEARCH_BOUNDED_DFS, SEARCH_RANDOM_BRANCH,
                                SEARCH_UNIFORM_RANDOM, SEARCH_CFG,         SEARCH_RANDOM_BRANCH,
                                SEARCH_RANDOM_BRANCH};
    memset(L, 0, sizeof *L);
    L->c = c;
    L->kind = o->distances ? SEARCH_CFG : kinds[o->strategy];
    L->strategy = o->strategy;
    L->fixed = o->fixed;
    mg_rng_seed(&L->rng, (uint64_t)o->seed);
    int rc = load_cfg(L, o);
    if (rc || o->distances)
        return rc;
    search_params sp;
    search_params_default(&sp);
    sp.kind = L->kind;
    solver_z3_params zp;
    solver_z3_params_default(&zp);
    zp.cancel = o->stop;
    mpi_semantics_params_default(&L->sem);
    L->sem.max_np = o->max_np;
    if (search_create(&sp, &L->search) || solver_z3_create(&zp, &L->z3)) {
        mg_error("cannot start the solver");
        return MG_EXIT_SOFTWARE;
    }
    if (o->resume)
        return concolic_resume_restore(L);
    return o->strategy == CONCOLIC_STRATEGY_RANDOM_ALL ? random_start(L, o) : 0;
}

void concolic_loop_end(concolic_loop *L)
{
    while (L->nstack)
        path_log_free(&L->stack[--L->nstack]);
    free(L->stack);
    concolic_cfg_free(&L->cfg);
    focus_frontier_free(&L->frontier);
    search_destroy(L->search);
    solver_z3_destroy(L->z3);
}

/* The input values the run really used (after caps and domains), from the focus's declarations;
 * inputs must hold at least as many entries as the log declares. Returns the count. */
static size_t used_inputs(const concolic_result *r, int64_t *inputs, size_t n)
{
    size_t k = 0;
    for (uint32_t v = 0; r->have_heavy && v < r->heavy.nvars; v++)
        if (!sym_var_is_mpi(r->heavy.vars[v].kind) && k < n)
            inputs[k++] = r->heavy.vars[v].value;
    return k;
}

static void account(concolic_loop *L, const concolic_result *r)
{
    concolic_cost *k = &L->cost;
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

int concolic_loop_iterate(concolic_loop *L, const concolic_options *o, const concolic_launch *lp,
                          mg_report *rep, uint64_t first_iteration)
{
    concolic_campaign *c = L->c;
    concolic_result r;
    char err[512];
    uint64_t run_id = mg_rng_next(&L->rng) | 1;
    int64_t *inputs = calloc(c->ninputs + 64, sizeof *inputs);
    if (!inputs)
        return MG_EXIT_SOFTWARE;
    memcpy(inputs, c->inputs, c->ninputs * sizeof *inputs);
    uint32_t np = c->np, focus = c->focus;
    double timeout = lp->timeout_s, left = o->deadline ? o->deadline - mg_clock_seconds() : 0;
    int budget_cut = o->deadline && left < timeout;
    if (budget_cut)
        timeout = left;
    if (stopping(o) || timeout <= 0) {
        free(inputs);
        return 0;
    }
    if (concolic_launch_run(lp, c, run_id, timeout, &r, err, sizeof err)) {
        mg_error("%s", err);
        free(inputs);
        return MG_EXIT_UNAVAILABLE;
    }
    if (r.refused || r.interrupted || (o->stop && *o->stop) || (budget_cut && r.timed_out)) {
        if (r.refused)
            mg_error("%s did not start the program (%s): a setup problem, not a bug in the "
                     "program; its output is in %s/run/output.txt",
                     lp->launcher, r.detail, c->dir);
        concolic_result_free(&r);
        free(inputs);
        return r.refused ? MG_EXIT_UNAVAILABLE : 0;
    }
    account(L, &r);
    L->last = (concolic_last_run){np, focus, r.outcome, r.seconds};
    c->iterations++;
    size_t covered_before = c->covered.n;
    coverage_set_merge(&c->covered, &r.cover);
    /* Out of memory there only loses a hint for the focus: the campaign goes on. */
    for (uint32_t k = 0; k < r.nranks; k++)
        (void)focus_frontier_observe(&L->frontier, k, &r.rank_cover[k], k == focus && r.have_heavy);
    size_t ninputs = used_inputs(&r, inputs, c->ninputs + 64);
    if (ninputs > c->ninputs || (L->trim_inputs && r.have_heavy)) {
        concolic_campaign_set_inputs(c, inputs, ninputs);
        L->trim_inputs = 0;
    } else
        ninputs = c->ninputs;
    if (concolic_report_bug(c, &r, inputs, ninputs, np, focus, c->iterations, rep) && rep &&
        cli_opts.report_path)
        mg_report_write(rep, cli_opts.report_path, err, sizeof err);
    if (r.log_problem[0] && c->iterations == first_iteration + 1)
        mg_warn("%s (the run gave no constraints)", r.log_problem);
    int rc = observe(L, &r, c->covered.n > covered_before);
    double solve_s = rc ? 0 : choose_next(L, o);
    L->cost.solve_s += solve_s;
    concolic_report_run(c, &r, inputs, ninputs, np, focus, solve_s);
    free(inputs);
    concolic_result_free(&r);
    if (rc)
        return MG_EXIT_SOFTWARE;
    concolic_resume_save(L);
    concolic_campaign_save(c);
    concolic_loop_progress(L, 0);
    return 0;
}
