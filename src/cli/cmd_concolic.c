/* `mpiguard concolic`: COMPI's concolic testing loop over a program built with mpiguard-cc
 * (docs/concolic.md; spec: docs/design/concolic.md; dissertation chapter 2). Each iteration
 * launches the job (heavy executable at the focus rank), reads the focus's constraints and every
 * rank's coverage, asks the search strategy for a constraint to negate, solves its slice with the
 * MPI semantics, and derives the next inputs, process count and focus. */
#include "cli.h"
#include "concolic_campaign.h"
#include "concolic_cfg.h"
#include "concolic_launch.h"
#include "concolic_loop.h"
#include "launcher.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A campaign stops at once on SIGINT, SIGTERM, SIGHUP or SIGQUIT: the job's handlers
 * (job_install_signal_handlers) stop a run in progress, and this one also stops a solve in
 * progress (the solver's cancel flag) and ends the loop. */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
static struct sigaction job_handlers[sizeof stop_signals / sizeof *stop_signals];
static volatile sig_atomic_t stop_signal; /* the signal that stopped the campaign; 0: none */

static void on_stop_signal(int sig, siginfo_t *info, void *context)
{
    stop_signal = sig;
    for (size_t k = 0; k < sizeof stop_signals / sizeof *stop_signals; k++)
        if (stop_signals[k] == sig && (job_handlers[k].sa_flags & SA_SIGINFO))
            job_handlers[k].sa_sigaction(sig, info, context);
}

static void install_stop_handlers(void)
{
    job_install_signal_handlers();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_stop_signal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    for (size_t k = 0; k < sizeof stop_signals / sizeof *stop_signals; k++)
        sigaction(stop_signals[k], &sa, &job_handlers[k]);
}

static int check_run_options(const concolic_loop_options *o)
{
    if (o->caps + o->tune + o->uncapped > 1) {
        mg_log_error("--caps, --tune and --uncapped each choose how inputs are bounded: give one");
        return MG_EXIT_USAGE;
    }
    if (o->resume) /* --np and --focus are the saved ones */
        return 0;
    if (o->np > o->max_np) {
        mg_log_error("--np %ld is above --max-np %ld", o->np, o->max_np);
        return MG_EXIT_USAGE;
    }
    if (o->focus >= o->np) {
        mg_log_error("--focus %ld is not a rank of %ld processes", o->focus, o->np);
        return MG_EXIT_USAGE;
    }
    return 0;
}

static int pick_launcher(const char *app, concolic_launch *lp)
{
    /* Every other tool takes a launcher command; this one starts the program itself. */
    char *const word[] = {(char *)app};
    launcher launcher;
    char err[256];
    int rc = launcher_identify(word, 1, &launcher, err, sizeof err);
    if (rc == MG_ERROR_OK || rc == MG_ERROR_EINVAL) {
        mg_log_error(
            "concolic starts the program itself, at the process counts it chooses: give the "
            "program after '--', not the launcher '%s' (e.g. mpiguard concolic --np 2 -- "
            "./app)",
            app);
        return MG_EXIT_USAGE;
    }
    mg_mpi_flavor f = cli_options_mpi();
    if (f == MG_MPI_FLAVOR_UNKNOWN && mpi_flavor_of_binary(app, &f)) {
        mg_log_error("%s: no such program", app);
        return MG_EXIT_NOINPUT;
    }
    if (f == MG_MPI_FLAVOR_UNKNOWN) {
        mg_log_error("%s does not link an MPI library (use --mpi)", app);
        return MG_EXIT_USAGE;
    }
    lp->openmpi = f == MG_MPI_FLAVOR_OPENMPI;
    lp->launcher = lp->openmpi ? "mpirun.openmpi" : "mpiexec.mpich";
    return 0;
}

static int open_campaign(concolic_campaign *c, const concolic_loop_options *o, const char *app)
{
    char err[1024];
    int rc = concolic_campaign_open(c, o->dir, app, o->resume, (uint32_t)o->np, (uint32_t)o->focus,
                                    err, sizeof err);
    if (!rc)
        return 0;
    mg_log_error("%s", err);
    return rc == MG_ERROR_ENOENT ? MG_EXIT_NOINPUT
           : rc == MG_ERROR_EIO  ? MG_EXIT_CANTCREAT
                                 : MG_EXIT_DATAERR;
}

/* --distances: the static table of the program's graph, nothing run, no directory made. */
static int print_distances(const concolic_loop_options *o, const char *app)
{
    concolic_campaign c;
    char err[4400];
    int rc = concolic_campaign_read_table(&c, app, err, sizeof err);
    if (rc) {
        mg_log_error("%s", err);
        concolic_campaign_free(&c);
        return rc == MG_ERROR_ENOENT ? MG_EXIT_NOINPUT : MG_EXIT_DATAERR;
    }
    concolic_loop L;
    rc = concolic_loop_start(&L, &c, o);
    if (!rc)
        concolic_cfg_print(&L.cfg, stdout);
    concolic_loop_end(&L);
    concolic_campaign_free(&c);
    return rc;
}

/* The campaign itself: its directory, its signal handlers, the loop, the exit status. */
static int campaign(const concolic_loop_options *o, concolic_launch *lp, const char *app)
{
    concolic_campaign c;
    int rc = open_campaign(&c, o, app);
    if (rc) {
        concolic_campaign_free(&c);
        return rc;
    }
    char token[40];
    snprintf(token, sizeof token, "concolic-%d-%ld", (int)getpid(), (long)time(NULL));
    lp->token = token;
    install_stop_handlers();
    report_doc *rep = cli_session_report_create("concolic");
    rc = concolic_loop_run(&c, o, lp, rep);
    int bugs = c.nbugs > 0;
    concolic_campaign_free(&c);
    report_destroy(rep);
    return rc ? rc : stop_signal ? MG_EXIT_SIGNAL_BASE + stop_signal : bugs ? MG_EXIT_FINDINGS : 0;
}

/* The options of this invocation, with their defaults (one campaign per process). */
static concolic_loop_options opts = {.np = 4,
                                     .focus = 0,
                                     .max_np = 16,
                                     .iterations = 0,
                                     .seed = 1,
                                     .timeout_s = 30,
                                     .strategy = 1,
                                     .dir = "mpiguard-concolic",
                                     .stall = SEARCH_SESSION_DEFAULT_STALL_RUNS};

static const mg_options_option options_table[] = {
    {"np", 0, MG_OPTIONS_INT, &opts.np, "N", "processes of the first run (default 4)", NULL, 1,
     4096},
    {"focus", 0, MG_OPTIONS_INT, &opts.focus, "R", "focus rank of the first run (default 0)", NULL,
     0, 4095},
    {"max-np", 0, MG_OPTIONS_INT, &opts.max_np, "M", "largest process count to try (default 16)",
     NULL, 1, 4096},
    {"iterations", 0, MG_OPTIONS_INT, &opts.iterations, "K",
     "runs of the program (default 100 without --time)", NULL, 1, 1e9},
    {"time", 0, MG_OPTIONS_DOUBLE, &opts.time_s, "SECONDS", "stop starting runs after this long",
     NULL, 1, 1e9},
    {"strategy", 0, MG_OPTIONS_CHOICE, &opts.strategy, "S",
     "bounded-dfs (default), dfs, uncovered-dfs (bounded DFS, negations for uncovered arms "
     "first), random-branch, uniform-random, cfg, or the baselines without solving: "
     "random-inputs (from the program's own inputs) or random-all (the first run random too)",
     concolic_loop_strategy_names, 0, 0},
    {"stall", 0, MG_OPTIONS_INT, &opts.stall, "N",
     "dfs, bounded-dfs: after N runs that cover nothing new, leave the subtree for an "
     "uncovered arm, else change np (default 20; 0: never)",
     NULL, 0, 1e9},
    {"caps", 0, MG_OPTIONS_FLAG, &opts.caps, NULL,
     "COMPI's capping: the limits of the _with_limit marks bound the solver's values, in place "
     "of input tuning (the default: the smallest values that reach an arm, no limits)",
     NULL, 0, 0},
    {"tune", 0, MG_OPTIONS_FLAG, &opts.tune, NULL,
     "input tuning, the default (accepted for older command lines)", NULL, 0, 0},
    {"uncapped", 0, MG_OPTIONS_FLAG | MG_OPTIONS_HIDDEN, &opts.uncapped, NULL,
     "neither input tuning nor caps: the solver's values as they are (ablation)", NULL, 0, 0},
    {"int-semantics", 0, MG_OPTIONS_CHOICE, &opts.int_semantics, "int|bv",
     "integers in the solver: unbounded (int, the default) or 8- to 64-bit two's complement "
     "(bv), so that branches behind an integer overflow are reached",
     concolic_loop_int_semantics_names, 0, 0},
    {"floats", 0, MG_OPTIONS_CHOICE, &opts.floats, "real|fp|off",
     "float and double inputs (mpiguard_double, mpiguard_float) and arithmetic: solved over "
     "the reals, each solution checked by the next run (real, the default), over IEEE "
     "doubles (fp: exact, slower), or kept concrete (off)",
     concolic_loop_floats_names, 0, 0},
    {"timeout", 0, MG_OPTIONS_DOUBLE, &opts.timeout_s, "SECONDS",
     "per run; a longer run is a hang (default 30)", NULL, 0.5, 1e6},
    {"resume", 0, MG_OPTIONS_FLAG, &opts.resume, NULL,
     "continue the campaign saved in --dir (and its search tree)", NULL, 0, 0},
    {"dir", 0, MG_OPTIONS_STRING, &opts.dir, "DIR",
     "campaign directory (default ./mpiguard-concolic)", NULL, 0, 0},
    {"seed", 0, MG_OPTIONS_INT, &opts.seed, "N", "seed of the random choices (default 1)", NULL, 0,
     1e18},
    {"fixed", 0, MG_OPTIONS_FLAG | MG_OPTIONS_HIDDEN, &opts.fixed, NULL,
     "keep --np and --focus for every run (ablation)", NULL, 0, 0},
    {"one-way", 0, MG_OPTIONS_FLAG | MG_OPTIONS_HIDDEN, &opts.one_way, NULL,
     "run the heavy executable on every rank (ablation)", NULL, 0, 0},
    {"no-reduce", 0, MG_OPTIONS_FLAG | MG_OPTIONS_HIDDEN, &opts.no_reduce, NULL,
     "log every branch, no constraint-set reduction (ablation)", NULL, 0, 0},
    {"distances", 0, MG_OPTIONS_FLAG, &opts.distances, NULL,
     "print the static CFG distances of every branch arm to every branch and exit", NULL, 0, 0},
    {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0}};

int cmd_concolic(int argc, char **argv)
{
    static const char usage[] =
        "mpiguard concolic [options] -- ./app args   (app built with mpiguard-cc)";
    mg_options_parsed_args args;
    int done;
    int rc = cli_options_parse(
        usage,
        "Concolic testing (COMPI): generate inputs, process counts and focus ranks that\n"
        "reach new branches; report a reproducer for every distinct bug.",
        options_table, argc, argv, CLI_COMMAND, NULL, 0, &args, &done);
    if (rc || done)
        return rc;
    concolic_loop_options o = opts;
    o.quiet = cli_options.quiet;
    o.report_path = cli_options.report_path;
    o.stop = &stop_signal;
    if ((rc = check_run_options(&o)))
        return rc;
    o.tune = !o.caps && !o.uncapped;
    if (o.distances)
        return print_distances(&o, args.command[0]);
    if (!o.iterations && !o.time_s)
        o.iterations = 100;
    concolic_launch lp = {.app_args = args.command + 1,
                          .napp_args = args.ncommand - 1,
                          .timeout_s = o.timeout_s,
                          .one_way = o.one_way,
                          .no_reduce = o.no_reduce,
                          .uncapped = !o.caps,
                          .floats_off = o.floats == CONCOLIC_LOOP_FLOATS_OFF};
    if ((rc = pick_launcher(args.command[0], &lp)))
        return rc;
    return campaign(&o, &lp, args.command[0]);
}
