/* The iteration loop of `mpiguard concolic` (docs/design/concolic.md "mpiguard concolic";
 * dissertation chapter 2): run the job, merge coverage, record bugs, observe the path, choose and
 * solve the next negation, save the campaign. The command (cmd_concolic.c) parses options around
 * it. */
#ifndef CONCOLIC_LOOP_H
#define CONCOLIC_LOOP_H

#include "concolic_campaign.h"
#include "concolic_cfg.h"
#include "concolic_launch.h"
#include "mg_rng.h"
#include "report.h"
#include "search_session.h"

#include <signal.h>
#include <stdint.h>

/* The strategy choices of --strategy: the engine's kinds in order, then the two baselines of
 * plain random testing under the same caps, no solving: "random-inputs" (the first run keeps the
 * program's own inputs, --np and --focus) and "random-all" (the first run random too), then
 * "uncovered-dfs" (SEARCH_UNCOVERED_DFS). */
extern const char *const concolic_loop_strategy_names[];
#define CONCOLIC_LOOP_STRATEGY_RANDOM_INPUTS 5
#define CONCOLIC_LOOP_STRATEGY_RANDOM_ALL 6
/* Random testing draws this many values for every random run: more than a program marks, the
 * ones past its last mark unused (search_session_params.restart_inputs). */
#define CONCOLIC_LOOP_RANDOM_INPUTS 64
/* The choices of --int-semantics, in the order of enum solver_z3_semantics: "int" (unbounded
 * integers, COMPI's) and "bv" (machine integers: wrap-around branches are reachable). */
extern const char *const concolic_loop_int_semantics_names[];
/* The choices of --floats: the order of enum solver_z3_floats ("real", the default, and "fp"),
 * then "off": the runtime keeps floats concrete (as before floats were tracked). */
extern const char *const concolic_loop_floats_names[];
#define CONCOLIC_LOOP_FLOATS_OFF 2

typedef struct concolic_loop_options {
    long np, focus, max_np, iterations, seed;
    long stall; /* runs covering nothing new before a DFS search moves; 0: never */
    double time_s, timeout_s;
    int strategy, resume, one_way, no_reduce, fixed, distances;
    int tune;          /* input tuning (§3.3), unless --caps or --uncapped */
    int caps;          /* --caps: COMPI's capping instead of input tuning */
    int uncapped;      /* --uncapped (ablation): neither tuning nor caps */
    int int_semantics; /* --int-semantics: enum solver_z3_semantics, an index of
                          concolic_loop_int_semantics_names */
    int floats;        /* --floats: an index of concolic_loop_floats_names */
    const char *dir;
    /* The number of the signal that stopped the campaign, set by its handler: the run or solve in
     * progress stops, the campaign is saved as it was before it. 0 or NULL: not stopped. */
    const volatile sig_atomic_t *stop;
    double deadline;         /* mg_clock_seconds() at which --time ends; 0: none */
    int quiet;               /* no progress line */
    const char *report_path; /* the JSON report, rewritten after each new bug; NULL: none */
} concolic_loop_options;

/* What this session's iterations cost (a resumed campaign counts from the resume). */
typedef struct concolic_loop_cost {
    uint64_t runs;
    double job_s;                       /* every run's whole job */
    uint64_t split_runs;                /* runs whose every rank logged its start */
    double launch_s, run_s, teardown_s; /* summed over the split runs */
    double solve_s;
    uint64_t solves, sat, restarts, log_bytes;
    uint64_t query_timeouts; /* solver checks stopped by the per-query limit */
    uint64_t leaves, moves;  /* of a stalled search (search_session_next) */
    uint64_t tuning_checks;  /* solver checks input tuning added */
    uint64_t repeats;        /* tuned solutions not run: runs already made (search_session.h) */
    uint64_t repeat_cause[SEARCH_SESSION_REPEAT_CAUSES],
        repeat_unchanged; /* repeats split (the same) */
    uint64_t retunes;     /* tuned solutions re-tuned past runs already made (the same) */
    /* Runs from a solved float comparison, and those of them that did not take the arm the
     * solution aimed at (a Real solution rounded to the wrong side, a nonlinear term's
     * concrete value that moved): search_session.h */
    uint64_t float_solutions, float_missed;
} concolic_loop_cost;

/* The run just finished, for the progress line. */
typedef struct concolic_loop_last_run {
    uint32_t np, focus;
    int outcome;
    double seconds;
} concolic_loop_last_run;

typedef struct concolic_loop {
    concolic_campaign *c;
    search_session search; /* the strategy, its path logs, the solver: the next run's choice */
    mg_rng rng;
    int kind;     /* enum search_kind in use */
    int strategy; /* index into concolic_loop_strategy_names */
    concolic_cfg cfg;
    concolic_loop_cost cost;
    concolic_loop_last_run last; /* np 0: no run yet this session */
    int quiet;                   /* the options' (concolic_loop_start) */
    const char *report_path;     /* the options' */
} concolic_loop;

/* Prepares the loop over campaign c: the CFG graph for --strategy cfg (a program without one
 * is searched with uncovered arms only, with a warning), then, with --resume, the saved search
 * state (concolic_resume.h). Returns 0 or an exit status (MG_EXIT_*), with the reason logged. */
int concolic_loop_start(concolic_loop *L, concolic_campaign *c, const concolic_loop_options *o);
/* One iteration. first_iteration is the campaign's iteration count when this session began.
 * A run that o->stop or o->deadline cut short is not counted: the campaign stays saved as before
 * it, and the run is done again on --resume. Returns 0 or an exit status (MG_EXIT_UNAVAILABLE
 * when the launcher refused to start the program: a setup error, logged). */
int concolic_loop_iterate(concolic_loop *L, const concolic_loop_options *o,
                          const concolic_launch *lp, report_doc *rep, uint64_t first_iteration);
/* The progress line on stderr: the run just finished (np, focus, outcome, seconds), coverage and
 * bugs so far (final: ends the line on a terminal too). */
void concolic_loop_progress(const concolic_loop *L, int final);
void concolic_loop_end(concolic_loop *L);

/* The whole campaign c in this process: a new one (not o->resume) starts its runs.tsv anew; the
 * loop runs until o->iterations runs, the end of o->time_s or *o->stop; a stopped campaign is
 * saved for --resume; then the coverage and cost reports on stdout (unless o->quiet) and the
 * JSON report rep, written to o->report_path. Returns 0 or an exit status (MG_EXIT_*), with the
 * reason logged. */
int concolic_loop_run(concolic_campaign *c, const concolic_loop_options *o,
                      const concolic_launch *lp, report_doc *rep);

#endif
