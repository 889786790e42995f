/* `mpiguard concolic`: COMPI's concolic testing loop over a program built with mpiguard-cc
 * (docs/concolic.md; spec: design/concolic.md; dissertation chapter 2). Each iteration launches
 * the job (heavy executable at the focus rank), reads the focus's constraints and every rank's
 * coverage, asks the search strategy for a constraint to negate, solves its slice with the MPI
 * semantics, and derives the next inputs, process count and focus. */
#include "cli.h"
#include "concolic_campaign.h"
#include "concolic_launch.h"
#include "concolic_report.h"
#include "focus_select.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "mg_rng.h"
#include "search_strategy.h"
#include "solver_query.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The search strategies of the solver engine, then "random-inputs": plain random testing under
 * the same caps (no solving), the baseline of the coverage benchmark. */
static const char *const strategy_choices[] = {"dfs",           "bounded-dfs", "random-branch",
                                               "uniform-random", "cfg",        "random-inputs",
                                               NULL};
#define STRATEGY_RANDOM_INPUTS 5

typedef struct options {
    long np, focus, max_np, iterations, seed;
    double time_s, timeout_s;
    int strategy, resume, one_way, no_reduce, fixed;
    const char *dir;
} options;

/* The loop's state besides the campaign. */
typedef struct loop {
    concolic_campaign *c;
    search_state *search;
    solver_z3 *z3;
    mpi_semantics_params sem;
    mg_rng rng;
    int kind;
    path_log *stack; /* the path observed at each DFS level (level 0 only for the others) */
    size_t nstack;
    int level;       /* level of the choice that produced the next run, -1 for fresh inputs */
    uint32_t *dist;  /* CFG distance table: only uncovered arms attract (score 0) */
    double solve_s;
    uint64_t solves, sat, restarts, log_bytes;
    int fixed; /* --fixed: np and focus never change (the fixed-focus, fixed-size variant) */
} loop;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Keeps the new path at the level below the choice that produced it (DFS), or alone. */
static void push_path(loop *L, path_log *log)
{
    size_t keep = L->kind == SEARCH_DFS || L->kind == SEARCH_BOUNDED_DFS
                      ? (size_t)(L->level + 1)
                      : 0;
    while (L->nstack > keep)
        path_log_free(&L->stack[--L->nstack]);
    path_log *s = realloc(L->stack, (L->nstack + 1) * sizeof *s);
    if (!s) {
        path_log_free(log);
        return;
    }
    L->stack = s;
    L->stack[L->nstack++] = *log;
    memset(log, 0, sizeof *log);
}

static int observe(loop *L, concolic_result *r)
{
    path_log empty = {0};
    path_log *log = r->have_heavy ? &r->heavy : &empty;
    search_step *steps = calloc(log->nbranches + 1, sizeof *steps);
    if (!steps)
        return MG_ENOMEM;
    for (uint32_t i = 0; i < log->nbranches; i++)
        steps[i] = (search_step){log->branches[i].branch_id, log->branches[i].taken};
    int rc = search_observe(L->search, steps, log->nbranches);
    free(steps);
    if (rc)
        return rc;
    push_path(L, log);
    r->have_heavy = 0;
    return 0;
}

/* Fresh random inputs, process count and focus: the start of a new search tree. */
static void fresh_inputs(loop *L, const options *o)
{
    concolic_campaign *c = L->c;
    for (size_t i = 0; i < c->ninputs; i++)
        c->inputs[i] = (int64_t)mg_rng_below(&L->rng, 201) - 100;
    if (o->fixed)
        return;
    c->np = 1 + (uint32_t)mg_rng_below(&L->rng, (uint64_t)o->max_np);
    c->focus = (uint32_t)mg_rng_below(&L->rng, c->np);
    L->level = -1;
    L->restarts++;
}

/* Inputs of the next run from solved values: the i-th non-MPI variable is input i. */
static void take_values(loop *L, const path_log *log, const int64_t *values, focus_setup next)
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

/* Asks the strategy for constraints until one solves, or restarts from fresh inputs. */
static void choose_next(loop *L, const options *o)
{
    concolic_campaign *c = L->c;
    search_cfg cfg = {L->dist, 2 * (size_t)c->nbranches};
    for (int tries = 0; o->strategy != STRATEGY_RANDOM_INPUTS && tries < 100000; tries++) {
        search_choice ch;
        if (search_next(L->search, &c->covered, &cfg, &L->rng, &ch) || ch.exhausted ||
            ch.level >= L->nstack)
            break;
        const path_log *log = &L->stack[ch.level];
        int64_t *values = calloc(log->nvars + 1, sizeof *values);
        if (!values)
            break;
        int sat = 0;
        double t0 = now_s();
        int rc = solver_query_solve(L->z3, log, ch.index, &L->sem, &sat, values);
        L->solve_s += now_s() - t0;
        L->solves++;
        focus_setup prev = {log->header.world_size, log->header.rank}, next;
        if (!rc && sat &&
            !focus_select(log->vars, log->nvars, log->comms, log->ncomms, &prev, values, &next) &&
            next.np <= (uint32_t)o->max_np) {
            L->sat++;
            take_values(L, log, values, next);
            free(values);
            L->level = (int)ch.level;
            return;
        }
        free(values);
    }
    fresh_inputs(L, o);
}

static void progress(const loop *L, int final)
{
    const concolic_campaign *c = L->c;
    if (cli_opts.quiet)
        return;
    fprintf(stderr, "%smpiguard: concolic: iteration %" PRIu64 "  np %u focus %u  %zu/%u arms  %zu bugs%s",
            isatty(2) ? "\r" : "", c->iterations, c->np, c->focus, concolic_report_covered(c),
            2 * c->nbranches, c->nbugs, final || !isatty(2) ? "\n" : "");
}

static int start_loop(loop *L, concolic_campaign *c, const options *o)
{
    memset(L, 0, sizeof *L);
    L->c = c;
    static const int kinds[] = {SEARCH_DFS, SEARCH_BOUNDED_DFS, SEARCH_RANDOM_BRANCH,
                                SEARCH_UNIFORM_RANDOM, SEARCH_CFG, SEARCH_RANDOM_BRANCH};
    L->kind = kinds[o->strategy];
    L->fixed = o->fixed;
    L->level = -1;
    search_params sp;
    search_params_default(&sp);
    sp.kind = L->kind;
    solver_z3_params zp;
    solver_z3_params_default(&zp); /* rlimit budget, no wall-clock timeout (Z3 4.8.12 deadlock) */
    mpi_semantics_params_default(&L->sem);
    L->sem.max_np = o->max_np;
    mg_rng_seed(&L->rng, (uint64_t)o->seed);
    L->dist = malloc((2 * (size_t)c->nbranches + 1) * sizeof *L->dist);
    if (!L->dist)
        return MG_ENOMEM;
    for (size_t i = 0; i < 2 * (size_t)c->nbranches + 1; i++)
        L->dist[i] = UINT32_MAX;
    int rc = search_create(&sp, &L->search);
    return rc ? rc : solver_z3_create(&zp, &L->z3);
}

static void end_loop(loop *L)
{
    while (L->nstack)
        path_log_free(&L->stack[--L->nstack]);
    free(L->stack);
    free(L->dist);
    search_destroy(L->search);
    solver_z3_destroy(L->z3);
}

/* One iteration: run, record coverage and bugs, observe, choose. Returns 0 or an exit status. */
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

static int iterate(loop *L, const options *o, const concolic_launch *lp, mg_report *rep,
                   double *run_s, uint64_t first_iteration)
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
    if (concolic_launch_run(lp, c, run_id, &r, err, sizeof err)) {
        mg_error("%s", err);
        free(inputs);
        return MG_EXIT_UNAVAILABLE;
    }
    *run_s += r.seconds;
    L->log_bytes += r.log_bytes;
    c->iterations++;
    coverage_set_merge(&c->covered, &r.cover);
    size_t ninputs = used_inputs(&r, inputs, c->ninputs + 64);
    if (ninputs > c->ninputs)
        concolic_campaign_set_inputs(c, inputs, ninputs);
    else
        ninputs = c->ninputs;
    if (concolic_report_bug(c, &r, inputs, ninputs, np, focus, c->iterations, rep) && rep &&
        cli_opts.report_path)
        mg_report_write(rep, cli_opts.report_path, err, sizeof err);
    free(inputs);
    if (r.log_problem[0] && c->iterations == first_iteration + 1)
        mg_warn("%s (the run gave no constraints)", r.log_problem);
    int rc = observe(L, &r);
    concolic_result_free(&r);
    if (rc)
        return MG_EXIT_SOFTWARE;
    choose_next(L, o);
    concolic_campaign_save(c);
    progress(L, 0);
    return 0;
}

static int check_options(const options *o, int ncommand)
{
    if (ncommand < 1) {
        mg_error("missing '--' and the program (e.g. -- ./app args)");
        return MG_EXIT_USAGE;
    }
    if (o->np > o->max_np) {
        mg_error("--np %ld is above --max-np %ld", o->np, o->max_np);
        return MG_EXIT_USAGE;
    }
    if (o->focus >= o->np) {
        mg_error("--focus %ld is not a rank of %ld processes", o->focus, o->np);
        return MG_EXIT_USAGE;
    }
    return 0;
}

static int pick_launcher(const char *app, concolic_launch *lp)
{
    mg_mpi_flavor f = MG_FLAVOR_UNKNOWN;
    if (cli_opts.mpi_choice)
        f = cli_opts.mpi_choice == 1 ? MG_FLAVOR_OPENMPI : MG_FLAVOR_MPICH;
    else if (mg_mpi_flavor_of_binary(app, &f)) {
        mg_error("%s: no such program", app);
        return MG_EXIT_NOINPUT;
    }
    if (f == MG_FLAVOR_UNKNOWN) {
        mg_error("%s does not link an MPI library (use --mpi)", app);
        return MG_EXIT_USAGE;
    }
    lp->openmpi = f == MG_FLAVOR_OPENMPI;
    lp->launcher = lp->openmpi ? "mpirun.openmpi" : "mpiexec.mpich";
    return 0;
}

static int open_campaign(concolic_campaign *c, const options *o, const char *app)
{
    char err[1024];
    int rc = concolic_campaign_open(c, o->dir, app, o->resume, (uint32_t)o->np,
                                    (uint32_t)o->focus, err, sizeof err);
    if (!rc)
        return 0;
    mg_error("%s", err);
    return rc == MG_ENOENT ? MG_EXIT_NOINPUT : rc == MG_EIO ? MG_EXIT_CANTCREAT : MG_EXIT_DATAERR;
}

int cmd_concolic(int argc, char **argv)
{
    static const char usage[] =
        "mpiguard concolic [options] -- ./app args   (app built with mpiguard-cc)";
    options o = {.np = 4, .focus = 0, .max_np = 16, .iterations = 0, .seed = 1, .timeout_s = 30,
                 .strategy = 1, .dir = "mpiguard-concolic"};
    const mg_option options_table[] = {
        {"np", 0, MG_OPT_INT, &o.np, "N", "processes of the first run (default 4)", NULL, 1, 4096},
        {"focus", 0, MG_OPT_INT, &o.focus, "R", "focus rank of the first run (default 0)", NULL, 0, 4095},
        {"max-np", 0, MG_OPT_INT, &o.max_np, "M", "largest process count to try (default 16)", NULL, 1, 4096},
        {"iterations", 0, MG_OPT_INT, &o.iterations, "K", "runs of the program (default 100 without --time)", NULL, 1, 1e9},
        {"time", 0, MG_OPT_DOUBLE, &o.time_s, "SECONDS", "stop starting runs after this long", NULL, 1, 1e9},
        {"strategy", 0, MG_OPT_CHOICE, &o.strategy, "S",
         "bounded-dfs (default), dfs, random-branch, uniform-random, cfg, or random-inputs (no "
         "solving: the baseline)", strategy_choices, 0, 0},
        {"timeout", 0, MG_OPT_DOUBLE, &o.timeout_s, "SECONDS", "per run; a longer run is a hang (default 30)", NULL, 0.5, 1e6},
        {"resume", 0, MG_OPT_FLAG, &o.resume, NULL, "continue the campaign saved in --dir", NULL, 0, 0},
        {"dir", 0, MG_OPT_STRING, &o.dir, "DIR", "campaign directory (default ./mpiguard-concolic)", NULL, 0, 0},
        {"seed", 0, MG_OPT_INT, &o.seed, "N", "seed of the random choices (default 1)", NULL, 0, 1e18},
        {"fixed", 0, MG_OPT_FLAG, &o.fixed, NULL, "keep --np and --focus for every run (ablation)", NULL, 0, 0},
        {"one-way", 0, MG_OPT_FLAG, &o.one_way, NULL, "run the heavy executable on every rank (ablation)", NULL, 0, 0},
        {"no-reduce", 0, MG_OPT_FLAG, &o.no_reduce, NULL, "log every branch, no constraint-set reduction (ablation)", NULL, 0, 0},
        {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0}};
    mg_parsed_args args;
    int done;
    int rc = cli_parse(usage,
                       "Concolic testing (COMPI): generate inputs, process counts and focus ranks that\n"
                       "reach new branches; report a reproducer for every distinct bug.",
                       options_table, argc, argv, 1, NULL, 0, &args, &done);
    if (rc || done)
        return rc;
    if ((rc = check_options(&o, args.ncommand)))
        return rc;
    if (!o.iterations && !o.time_s)
        o.iterations = 100;
    concolic_launch lp = {.app_args = args.command + 1, .napp_args = args.ncommand - 1,
                          .timeout_s = o.timeout_s, .one_way = o.one_way,
                          .no_reduce = o.no_reduce};
    if ((rc = pick_launcher(args.command[0], &lp)))
        return rc;
    concolic_campaign c;
    if ((rc = open_campaign(&c, &o, args.command[0]))) {
        concolic_campaign_free(&c);
        return rc;
    }
    char token[40];
    snprintf(token, sizeof token, "concolic-%d-%ld", (int)getpid(), (long)time(NULL));
    lp.token = token;
    mg_job_install_signal_handlers();
    mg_report *rep = mg_report_create("concolic", MPIGUARD_VERSION, cli_command_line, cli_command_words);
    loop L;
    if (start_loop(&L, &c, &o)) {
        mg_error("cannot start the solver");
        end_loop(&L);
        concolic_campaign_free(&c);
        mg_report_destroy(rep);
        return MG_EXIT_SOFTWARE;
    }
    double t0 = now_s(), run_s = 0;
    uint64_t first = c.iterations;
    rc = 0;
    while (!rc && (!o.iterations || c.iterations - first < (uint64_t)o.iterations) &&
           (!o.time_s || now_s() - t0 < o.time_s))
        rc = iterate(&L, &o, &lp, rep, &run_s, first);
    progress(&L, 1);
    double total = now_s() - t0;
    uint64_t runs = c.iterations - first;
    if (!cli_opts.quiet) {
        concolic_report_coverage(&c, stdout);
        printf("cost: %" PRIu64 " runs in %.1f s: launch+run %.3f s/run, solve %.4f s/run "
               "(%" PRIu64 " queries, %" PRIu64 " sat), logs %.0f bytes/run, %" PRIu64
               " restarts from random inputs\n",
               runs, total, runs ? run_s / (double)runs : 0, runs ? L.solve_s / (double)runs : 0,
               L.solves, L.sat, runs ? (double)L.log_bytes / (double)runs : 0, L.restarts);
    }
    json_object *data = mg_report_tool_data(rep);
    json_object_object_add(data, "iterations", json_object_new_int64((int64_t)c.iterations));
    json_object_object_add(data, "arms_covered", json_object_new_int64((int64_t)concolic_report_covered(&c)));
    json_object_object_add(data, "arms_total", json_object_new_int64(2 * (int64_t)c.nbranches));
    char err[512];
    if (cli_opts.report_path && mg_report_write(rep, cli_opts.report_path, err, sizeof err)) {
        mg_error("%s", err);
        rc = rc ? rc : MG_EXIT_CANTCREAT;
    }
    int bugs = c.nbugs > 0;
    end_loop(&L);
    concolic_campaign_free(&c);
    mg_report_destroy(rep);
    return rc ? rc : bugs ? MG_EXIT_FINDINGS : 0;
}
