/* hang_sim: runs the ParaStack model and the timeout baseline over thousands of simulated faulty
 * and correct runs at P = 10^3..10^6 and prints AC_h, false alarms, delays, AC_f and PR_f
 * (docs/design/hang.md "Proof"; ParaStack §7). A bench driver: it prints, it reads the wall clock
 * only to report its own speed; simulated time never sleeps. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hang_model.h"
#include "hang_timeout.h"
#include "mg_error.h"
#include "mg_options.h"
#include "mg_rng.h"
#include "sim_app.h"
#include "sim_watch.h"

enum app_kind { APP_STENCIL, APP_CG, APP_FFT, APP_KINDS, APP_MIXED = APP_KINDS };
static const char *const app_names[] = {"stencil", "cg", "fft", "mixed", NULL};

/* The mini-app shapes of docs/design/hang.md, as periodic S_out generators: a 3-D stencil with a
 * residual allreduce every 25 iterations, a CG-like allreduce loop, an FFT-like all-to-all loop. */
static const struct sim_app_profile presets[APP_KINDS] = {
    [APP_STENCIL] = {.period = 0.05,
                     .compute_frac = 0.85,
                     .imbalance = 0.05,
                     .noise = 0.10,
                     .global_every = 25,
                     .grid_dims = 3},
    [APP_CG] = {.period = 0.01,
                .compute_frac = 0.60,
                .imbalance = 0.05,
                .noise = 0.20,
                .global_every = 1,
                .grid_dims = 1},
    [APP_FFT] = {.period = 0.8,
                 .compute_frac = 0.50,
                 .imbalance = 0.02,
                 .noise = 0.05,
                 .global_every = 1,
                 .grid_dims = 2},
};

/* Table 1 of the paper: (I, K) of the timeout method. */
static const struct {
    double interval;
    unsigned k;
} timeouts[] = {{0.4, 5}, {0.4, 10}, {0.8, 5}, {0.8, 10}};
#define NTIMEOUTS (sizeof timeouts / sizeof timeouts[0])
#define NDETECTORS (1 + NTIMEOUTS)

struct options {
    size_t nranks;
    size_t runs;
    uint64_t seed;
    double alpha;
    size_t set_size;
    int faults; /* bit 0 computation, bit 1 communication */
    enum app_kind app;
    double job_length;
    double fault_min;
    double deadline;
    double period_scale;  /* every preset's period is multiplied by this */
    double period_jitter; /* each run's period is the preset's times 2^U(-j, j) */
    double phase_prob;
    double phase_jitter;
    double slow_prob;
    double slow_min, slow_max;
    double slow_factor_min, slow_factor_max;
    size_t slow_ranks;
    bool slow_denies_cpu;
    size_t nscans;
    double scan_gap;
    double max_stretch;
    bool counters;
    double interval_max;
    bool paper_model; /* ParaStack's rules only (the ablation of ours) */
    size_t node_size; /* > 0: ranks read through agents of this many ranks each */
    size_t fanout;    /* > 0: through relays of this many agents each */
};

static void defaults(struct options *o)
{
    *o = (struct options){
        .nranks = 1000,
        .runs = 1000,
        .seed = 1,
        .alpha = 0.001,
        .set_size = 10,
        .faults = 3,
        .app = APP_MIXED,
        .job_length = 600,
        .fault_min = 20,
        .deadline = 600,
        .period_scale = 1.0,
        .period_jitter = 1.0,
        .phase_prob = 0.3,
        .phase_jitter = 2.0,
        .slow_prob = 0.2,
        .slow_min = 2,
        .slow_max = 30,
        .slow_factor_min = 2,
        .slow_factor_max = 10,
        .slow_ranks = 16,
        .slow_denies_cpu = true,
        .nscans = 3,
        .scan_gap = 1.0,
        .max_stretch = 10,
        .counters = true,
        .interval_max = 6.4,
    };
}

/* "A:B" with 0 <= A <= B. */
static int parse_range(const char *s, double *lo, double *hi)
{
    char *end;
    errno = 0;
    double a = strtod(s, &end);
    if (errno || *end != ':')
        return -1;
    double b = strtod(end + 1, &end);
    if (errno || *end || !isfinite(a) || !isfinite(b) || a < 0 || b < a)
        return -1;
    *lo = a;
    *hi = b;
    return 0;
}

static const char usage_line[] = "hang_sim [options]";
static const char description[] =
    "Runs the ParaStack model and the timeout baseline over simulated faulty and correct runs.";

/* The option table, its values parsed into `v` before they are checked and copied into options. */
struct option_values {
    long procs, runs, seed, set_size, scans, agents, fanout;
    double alpha, period_scale, job, deadline, slow_prob, phase_prob, scan_gap, stretch, imax;
    int faults, app, slow_cause, backend, model, help;
    const char *slow_factor, *slow_time;
};

static int parse(int argc, char **argv, struct options *o)
{
    static const char *const fault_names[] = {"comp", "comm", "both", NULL};
    static const char *const backends[] = {"ptrace", "shm", NULL};
    static const char *const models[] = {"paper", "mpiguard", NULL};
    static const char *const slow_causes[] = {"work", "cpu", NULL};
    struct option_values v = {.procs = (long)o->nranks,
                              .runs = (long)o->runs,
                              .seed = (long)o->seed,
                              .set_size = (long)o->set_size,
                              .scans = (long)o->nscans,
                              .alpha = o->alpha,
                              .period_scale = o->period_scale,
                              .job = o->job_length,
                              .deadline = o->deadline,
                              .slow_prob = o->slow_prob,
                              .phase_prob = o->phase_prob,
                              .scan_gap = o->scan_gap,
                              .stretch = o->max_stretch,
                              .imax = o->interval_max,
                              .faults = o->faults - 1,
                              .app = o->app,
                              .slow_cause = o->slow_denies_cpu,
                              .backend = o->counters,
                              .model = !o->paper_model};
    const double big = 1e9;
    const mg_options_option table[] = {
        {"procs", 'P', MG_OPTIONS_INT, &v.procs, "N", "simulated processes (default 1000)", NULL, 1,
         1 << 30},
        {"runs", 'n', MG_OPTIONS_INT, &v.runs, "N",
         "faulty runs and as many correct runs (default 1000)", NULL, 1, big},
        {"seed", 's', MG_OPTIONS_INT, &v.seed, "N", "master seed (default 1)", NULL, 1, big},
        {"alpha", 'a', MG_OPTIONS_DOUBLE, &v.alpha, "X",
         "significance of the model (default 0.001)", NULL, 1e-300, 0.999999},
        {"set-size", 'C', MG_OPTIONS_INT, &v.set_size, "N", "ranks per sampled set (default 10)",
         NULL, 1, big},
        {"faults", 'f', MG_OPTIONS_CHOICE, &v.faults, "KIND",
         "comp, comm or both (default both, alternating)", fault_names, 0, 0},
        {"app", 'A', MG_OPTIONS_CHOICE, &v.app, "KIND", "stencil, cg, fft or mixed (default mixed)",
         app_names, 0, 0},
        {"period-scale", 0, MG_OPTIONS_DOUBLE, &v.period_scale, "X",
         "multiply the apps' iteration periods by X (default 1)", NULL, 1e-9, big},
        {"job", 0, MG_OPTIONS_DOUBLE, &v.job, "SECONDS", "length of a correct run (default 600)",
         NULL, 0, big},
        {"deadline", 0, MG_OPTIONS_DOUBLE, &v.deadline, "SECONDS",
         "how long after a fault a miss is declared (default 600)", NULL, 0, big},
        {"slow-prob", 0, MG_OPTIONS_DOUBLE, &v.slow_prob, "X",
         "probability of a transient slowdown per run (default 0.2)", NULL, 0, 1},
        {"slow-factor", 0, MG_OPTIONS_STRING, &v.slow_factor, "A:B",
         "a slowdown multiplies compute by U(A, B) (default 2:10)", NULL, 0, 0},
        {"slow-time", 0, MG_OPTIONS_STRING, &v.slow_time, "A:B",
         "a slowdown lasts U(A, B) seconds (default 2:30)", NULL, 0, 0},
        {"slow-cause", 0, MG_OPTIONS_CHOICE, &v.slow_cause, "KIND",
         "work (more work at full speed: verification does not see it) or cpu (the node gives the "
         "slowed ranks 1/factor of a CPU, which verification sees) (default cpu)",
         slow_causes, 0, 0},
        {"phase-prob", 0, MG_OPTIONS_DOUBLE, &v.phase_prob, "X",
         "probability of a phase change per run (default 0.3)", NULL, 0, 1},
        {"scans", 0, MG_OPTIONS_INT, &v.scans, "N", "scans of every rank per diagnosis (default 3)",
         NULL, 2, big},
        {"scan-gap", 0, MG_OPTIONS_DOUBLE, &v.scan_gap, "SECONDS",
         "between scans, in each rank's own time (default 1)", NULL, 1e-9, big},
        {"scan-stretch", 0, MG_OPTIONS_DOUBLE, &v.stretch, "N",
         "a gap lasts at most N scan gaps by the clock (default 10; 1: the paper's fixed gaps)",
         NULL, 1, big},
        {"backend", 0, MG_OPTIONS_CHOICE, &v.backend, "KIND",
         "ptrace (states only) or shm (call counters) (default shm)", backends, 0, 0},
        {"interval-max", 0, MG_OPTIONS_DOUBLE, &v.imax, "S",
         "cap on the model's sampling interval (default 6.4)", NULL, 0, big},
        {"model", 0, MG_OPTIONS_CHOICE, &v.model, "KIND",
         "paper (ParaStack's rules only) or mpiguard (exact bound, degenerate windows keep I) "
         "(default mpiguard)",
         models, 0, 0},
        {"agents", 0, MG_OPTIONS_INT, &v.agents, "N",
         "read the ranks through simulated node agents of N ranks each, over the agent protocol",
         NULL, 1, big},
        {"fanout", 0, MG_OPTIONS_INT, &v.fanout, "F",
         "with --agents: through a level of relays of F agents each", NULL, 1, big},
        {"help", 'h', MG_OPTIONS_FLAG, &v.help, NULL, "this help", NULL, 0, 0},
        {0},
    };
    const mg_options_option *const tables[] = {table, NULL};
    mg_options_parsed_args args;
    char err[256];
    if (mg_options_parse(tables, argc - 1, argv + 1, NULL, 0, &args, err, sizeof err) !=
        MG_ERROR_OK) {
        fprintf(stderr, "hang_sim: %s\n", err);
        return -1;
    }
    if (v.help) {
        mg_options_print_help(stdout, usage_line, description, tables);
        exit(0);
    }
    if (args.command ||
        (v.slow_factor &&
         parse_range(v.slow_factor, &o->slow_factor_min, &o->slow_factor_max) != 0) ||
        (v.slow_time && parse_range(v.slow_time, &o->slow_min, &o->slow_max) != 0) ||
        (v.fanout && !v.agents) || v.job <= o->fault_min) {
        fprintf(stderr,
                "hang_sim: bad --slow-factor, --slow-time, --fanout or --job (see --help)\n");
        return -1;
    }
    *o = (struct options){.nranks = (size_t)v.procs,
                          .runs = (size_t)v.runs,
                          .seed = (uint64_t)v.seed,
                          .alpha = v.alpha,
                          .set_size = (size_t)v.set_size,
                          .faults = v.faults + 1,
                          .app = v.app,
                          .job_length = v.job,
                          .fault_min = o->fault_min,
                          .deadline = v.deadline,
                          .period_scale = v.period_scale,
                          .period_jitter = o->period_jitter,
                          .phase_prob = v.phase_prob,
                          .phase_jitter = o->phase_jitter,
                          .slow_prob = v.slow_prob,
                          .slow_min = o->slow_min,
                          .slow_max = o->slow_max,
                          .slow_factor_min = o->slow_factor_min,
                          .slow_factor_max = o->slow_factor_max,
                          .slow_ranks = o->slow_ranks,
                          .slow_denies_cpu = v.slow_cause == 1,
                          .nscans = (size_t)v.scans,
                          .scan_gap = v.scan_gap,
                          .max_stretch = v.stretch,
                          .counters = v.backend == 1,
                          .interval_max = v.imax,
                          .paper_model = v.model == 0,
                          .node_size = (size_t)v.agents,
                          .fanout = (size_t)v.fanout};
    return 0;
}

static double uniform(mg_rng *rng, double lo, double hi)
{
    return lo + (hi - lo) * mg_rng_uniform(rng);
}

/* One run, fully determined by the options, its index and whether it is faulty. */
static void make_run(const struct options *o, size_t index, bool faulty, struct sim_app_run *run)
{
    mg_rng rng;
    mg_rng_seed(&rng, o->seed * 0x9e3779b97f4a7c15ULL ^
                          (uint64_t)o->nranks * 0x2545f4914f6cdd1dULL ^
                          ((uint64_t)index << 1 | faulty));
    enum app_kind app = o->app == APP_MIXED ? (enum app_kind)mg_rng_below(&rng, APP_KINDS) : o->app;
    struct sim_app_profile p = presets[app];
    p.period *= o->period_scale * exp2(uniform(&rng, -o->period_jitter, o->period_jitter));
    *run = (struct sim_app_run){.seed = mg_rng_next(&rng),
                                .nranks = o->nranks,
                                .phase = {p, p},
                                .phase_change = INFINITY,
                                .slow_start = INFINITY,
                                .slow_end = INFINITY,
                                .fault = SIM_APP_FAULT_NONE};
    if (mg_rng_uniform(&rng) < o->phase_prob) {
        run->phase_change = uniform(&rng, o->job_length / 4, 3 * o->job_length / 4);
        run->phase[1].period *= exp2(uniform(&rng, -o->phase_jitter, o->phase_jitter));
        run->phase[1].compute_frac = fmin(0.95,
                                          fmax(0.3, p.compute_frac + uniform(&rng, -0.15, 0.15)));
    }
    if (mg_rng_uniform(&rng) < o->slow_prob) {
        run->slow_start = uniform(&rng, 0, o->job_length);
        run->slow_end = run->slow_start + uniform(&rng, o->slow_min, o->slow_max);
        run->slow_count = o->slow_ranks < o->nranks ? o->slow_ranks : o->nranks;
        run->slow_first = (size_t)mg_rng_below(&rng, o->nranks - run->slow_count + 1);
        run->slow_factor = uniform(&rng, o->slow_factor_min, o->slow_factor_max);
        run->slow_denies_cpu = o->slow_denies_cpu;
    }
    if (faulty) {
        bool comp = o->faults == 1 || (o->faults == 3 && index % 2 == 0);
        run->fault = comp ? SIM_APP_FAULT_COMPUTATION : SIM_APP_FAULT_COMMUNICATION;
        run->fault_rank = (size_t)mg_rng_below(&rng, o->nranks);
        run->fault_time = uniform(&rng, o->fault_min, o->job_length);
    }
    sim_app_run_prepare(run);
}

struct tally {
    size_t faulty, correct;
    size_t detected, early, missed;
    size_t false_alarm, raw_alarm; /* correct runs: reported / any HANG verdict */
    size_t comp_detected, faulty_found, type_ok;
    double pr_sum;
    unsigned dismissed;
    double *delays;
    size_t ndelays;
    double *intervals; /* the model's final I per run */
    size_t nintervals;
};

static void account(struct tally *t, const struct sim_app_run *run,
                    const struct sim_watch_outcome *o, bool diagnosed)
{
    t->dismissed += o->dismissed;
    if (run->fault == SIM_APP_FAULT_NONE) {
        t->correct++;
        t->false_alarm += o->alarm;
        t->raw_alarm += o->raw_hangs > 0;
        return;
    }
    t->faulty++;
    if (!o->alarm) {
        t->missed++;
        return;
    }
    if (o->alarm_time < run->fault_time) {
        t->early++;
        return;
    }
    t->detected++;
    t->delays[t->ndelays++] = o->alarm_time - run->fault_time;
    if (!diagnosed)
        return;
    bool comp = run->fault == SIM_APP_FAULT_COMPUTATION;
    t->type_ok += (o->kind == HANG_DIAG_COMPUTATION) == comp;
    if (comp) {
        t->comp_detected++;
        t->faulty_found += o->faulty_named;
        t->pr_sum += o->faulty_named ? 1.0 / (double)o->nfaulty : 0.0;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile of a sorted array; NAN when empty. */
static double percentile(const double *v, size_t n, double p)
{
    if (n == 0)
        return NAN;
    size_t k = (size_t)ceil(p * (double)n);
    return v[k > 0 ? k - 1 : 0];
}

static double ratio(size_t a, size_t b)
{
    return b ? (double)a / (double)b : NAN;
}

static void print_row(const char *name, const struct options *o, struct tally *t, bool diagnosed)
{
    qsort(t->delays, t->ndelays, sizeof *t->delays, cmp_double);
    printf("%-8zu %-16s %5zu %5zu  %6.3f %6.3f %6.3f  %6.3f %6.3f  %7.1f %7.1f", o->nranks, name,
           t->faulty, t->correct, ratio(t->detected, t->faulty), ratio(t->early, t->faulty),
           ratio(t->missed, t->faulty), ratio(t->false_alarm, t->correct),
           ratio(t->raw_alarm, t->correct), percentile(t->delays, t->ndelays, 0.5),
           percentile(t->delays, t->ndelays, 0.9));
    if (diagnosed) {
        qsort(t->intervals, t->nintervals, sizeof *t->intervals, cmp_double);
        printf("  %6.3f %6.3f %6.3f %6u %6.1f %6.1f\n", ratio(t->faulty_found, t->comp_detected),
               t->comp_detected ? t->pr_sum / (double)t->comp_detected : NAN,
               ratio(t->type_ok, t->detected), t->dismissed,
               percentile(t->intervals, t->nintervals, 0.5),
               percentile(t->intervals, t->nintervals, 0.9));
    } else {
        printf("  %6s %6s %6s %6s %6s %6s\n", "-", "-", "-", "-", "-", "-");
    }
}

static void add_cost(struct sim_watch_wire_cost *sum, const struct sim_watch_wire_cost *c)
{
    sum->rounds += c->rounds;
    sum->frames += c->frames;
    sum->bytes += c->bytes;
    sum->seconds += c->seconds;
}

/* The agents' cost per round of each kind, on one line after the table. */
static void print_wire(const struct options *o, const struct sim_watch_wire_cost *samples,
                       const struct sim_watch_wire_cost *scans)
{
    const struct sim_watch_wire_cost *kinds[2] = {samples, scans};
    size_t nagents = (o->nranks + o->node_size - 1) / o->node_size;
    printf("# agents: %zu of %zu ranks each", nagents, o->node_size);
    if (o->fanout)
        printf(" under %zu relays of %zu", (nagents + o->fanout - 1) / o->fanout, o->fanout);
    printf(";");
    for (int k = 0; k < 2; k++) {
        double n = kinds[k]->rounds ? (double)kinds[k]->rounds : NAN;
        printf(" %s rounds %llu: %.1f frames, %.0f bytes, %.3f ms each%s", k ? "scan" : "sample",
               (unsigned long long)kinds[k]->rounds, (double)kinds[k]->frames / n,
               (double)kinds[k]->bytes / n, 1e3 * kinds[k]->seconds / n, k ? "\n" : ";");
    }
}

/* Watches one run with the model and every timeout setting; all on the same run. The wire cost of
 * every watch is added to samples and scans. */
static int watch_all(const struct options *o, const struct sim_app_run *run,
                     struct sim_watch_probe_buf *buf, struct sim_agents *agents,
                     struct tally *tallies, struct sim_watch_wire_cost *samples,
                     struct sim_watch_wire_cost *scans)
{
    double end = run->fault == SIM_APP_FAULT_NONE ? o->job_length : run->fault_time + o->deadline;
    struct hang_model_params mp;
    hang_model_params_default(&mp);
    mp.alpha = o->alpha;
    mp.set_size = o->set_size;
    mp.interval_max = fmax(o->interval_max, mp.interval_init);
    if (o->paper_model) {
        mp.exact_bound = false;
        mp.degenerate_grows = true;
    }
    struct hang_model *m;
    int rc = hang_model_create(&mp, run->nranks, run->seed ^ 0x5851f42d4c957f2dULL, &m);
    if (rc != MG_ERROR_OK)
        return rc;
    struct sim_watch_config cfg = {.end_time = end, .counters = o->counters, .agents = agents};
    hang_watch_params_default(&cfg.watch);
    cfg.watch.nscans = o->nscans;
    cfg.watch.scan_gap = o->scan_gap;
    cfg.watch.max_stretch = o->max_stretch;
    struct hang_watch_detector det = hang_watch_detector_model(m);
    struct sim_watch_outcome out;
    rc = sim_watch(run, &det, &cfg, buf, &out);
    struct hang_model_state st;
    hang_model_state(m, &st);
    hang_model_destroy(m);
    if (rc != MG_ERROR_OK)
        return rc;
    add_cost(samples, &out.samples);
    add_cost(scans, &out.scans);
    account(&tallies[0], run, &out, true);
    tallies[0].intervals[tallies[0].nintervals++] = st.interval;
    /* the paper's baseline: its HANG is final, and it has no rule for hangs from the first call */
    cfg.watch.verify = false;
    cfg.watch.still_after = 0;
    for (size_t i = 0; i < NTIMEOUTS; i++) {
        struct hang_timeout_params tp;
        hang_timeout_params_default(&tp);
        tp.interval = timeouts[i].interval;
        tp.k = timeouts[i].k;
        tp.set_size = o->set_size;
        struct hang_timeout *t;
        rc = hang_timeout_create(&tp, run->nranks, run->seed ^ (0x14057b7ef767814fULL * (i + 1)),
                                 &t);
        if (rc != MG_ERROR_OK)
            return rc;
        det = hang_watch_detector_timeout(t);
        rc = sim_watch(run, &det, &cfg, buf, &out);
        hang_timeout_destroy(t);
        if (rc != MG_ERROR_OK)
            return rc;
        add_cost(samples, &out.samples);
        add_cost(scans, &out.scans);
        account(&tallies[1 + i], run, &out, false);
    }
    return MG_ERROR_OK;
}

int main(int argc, char **argv)
{
    struct options o;
    defaults(&o);
    if (parse(argc, argv, &o) != 0)
        return 2;
    struct sim_watch_probe_buf buf = {.readings = calloc(o.nranks, sizeof *buf.readings),
                                      .last_counter = calloc(o.nranks, sizeof *buf.last_counter),
                                      .read_in = calloc(o.nranks, sizeof *buf.read_in),
                                      .cpu_s = calloc(o.nranks, sizeof *buf.cpu_s),
                                      .wire = calloc(o.nranks, sizeof *buf.wire)};
    struct tally tallies[NDETECTORS] = {{0}};
    struct sim_watch_wire_cost samples = {0}, scans = {0};
    struct sim_agents *agents = NULL;
    bool ok = buf.readings && buf.last_counter && buf.read_in && buf.cpu_s && buf.wire;
    for (size_t i = 0; i < NDETECTORS && ok; i++) {
        tallies[i].delays = calloc(o.runs, sizeof(double));
        tallies[i].intervals = calloc(2 * o.runs, sizeof(double));
        ok = tallies[i].delays && tallies[i].intervals;
    }
    if (!ok) {
        fprintf(stderr, "hang_sim: out of memory\n");
        return 1;
    }
    int rc = o.node_size ? sim_agents_create(o.nranks, o.node_size, o.fanout, &agents)
                         : MG_ERROR_OK;
    if (rc != MG_ERROR_OK) {
        fprintf(stderr, "hang_sim: cannot start the simulated agents: %s\n", mg_error_string(rc));
        return 1;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t k = 0; k < 2 * o.runs; k++) {
        struct sim_app_run run;
        make_run(&o, k / 2, k % 2 == 0, &run);
        rc = watch_all(&o, &run, &buf, agents, tallies, &samples, &scans);
        if (rc != MG_ERROR_OK) {
            fprintf(stderr, "hang_sim: run %zu: %s\n", k, mg_error_string(rc));
            return 1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("# P=%zu runs=%zu+%zu seed=%llu alpha=%g C=%zu app=%s faults=%s backend=%s "
           "period x%g job=%gs deadline=%gs slow=%g x%g-%g %g-%gs %s phase=%g scans=%zux%gs<=%gx "
           "Imax=%g "
           "model=%s  (%.1f s wall)\n",
           o.nranks, o.runs, o.runs, (unsigned long long)o.seed, o.alpha, o.set_size,
           app_names[o.app],
           o.faults == 1   ? "comp"
           : o.faults == 2 ? "comm"
                           : "both",
           o.counters ? "shm" : "ptrace", o.period_scale, o.job_length, o.deadline, o.slow_prob,
           o.slow_factor_min, o.slow_factor_max, o.slow_min, o.slow_max,
           o.slow_denies_cpu ? "cpu" : "work", o.phase_prob, o.nscans, o.scan_gap, o.max_stretch,
           o.interval_max, o.paper_model ? "paper" : "mpiguard",
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    printf("%-8s %-16s %5s %5s  %6s %6s %6s  %6s %6s  %7s %7s  %6s %6s %6s %6s %6s %6s\n", "P",
           "detector", "fault", "corr", "AC_h", "early", "missed", "FP", "FPraw", "D_med", "D_p90",
           "AC_f", "PR_f", "type", "dism", "I_med", "I_p90");
    print_row("parastack", &o, &tallies[0], true);
    for (size_t i = 0; i < NTIMEOUTS; i++) {
        char name[32];
        snprintf(name, sizeof name, "timeout %.1fs/%u", timeouts[i].interval, timeouts[i].k);
        print_row(name, &o, &tallies[1 + i], false);
    }
    if (agents)
        print_wire(&o, &samples, &scans);
    sim_agents_destroy(agents);
    for (size_t i = 0; i < NDETECTORS; i++) {
        free(tallies[i].delays);
        free(tallies[i].intervals);
    }
    free(buf.readings);
    free(buf.last_counter);
    free(buf.read_in);
    free(buf.cpu_s);
    free(buf.wire);
    return 0;
}
