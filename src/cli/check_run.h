/* Internal to src/cli: no other folder includes it (docs/architecture.md). */
/* The state of one `mpiguard check` run, shared by its parts: the command (cmd_check.c), which
 * starts and ends it, the watch (check_watch.c), which drains the feed (check_feed.h) and drives
 * the engine's check_policy (when to analyse, when a deadlock is confirmed), and the report
 * (check_report.c), which writes the findings. Not for other modules. */
#ifndef MG_CHECK_RUN_H
#define MG_CHECK_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "check_agents.h"
#include "cli.h"

/* Room for the class table's classes (report_class_select refuses a smaller one). */
enum { CHECK_RUN_CLASSES_MAX = 256 };

/* The options of `mpiguard check`. */
typedef struct check_run_options {
    int on_deadlock, buffered_sends, wildcards;
    double quiet_time;
    long agents;
    long detector_leaves;       /* leaves of the tree of detectors, each under one agent; 0: none */
    const char *agent_launcher; /* words that start one agent per node */
    /* --checks: selected[i] for class i of the class table (report_class.h) */
    unsigned char selected[CHECK_RUN_CLASSES_MAX];
} check_run_options;

/* A finding in the report that the detector may still change (a collective mismatch later callers
 * join, an invalid call MPI then ends its rank inside): the detector's finding, the report's
 * entry, and the calls and notes it had when written. */
typedef struct check_run_reported_changing {
    size_t finding, entry, calls;
    uint32_t notes;
} check_run_reported_changing;

/* One run: its job, its feed (agents and detector), and what the watch and the report keep of
 * the findings. */
typedef struct check_run {
    cli_session *s;
    const check_run_options *o;
    check_feed feed;     /* the agents, the detector they feed, and what it keeps of the ranks */
    check_agents agents; /* the processes the feed's records come from */
    size_t reported;
    uint64_t *signatures; /* of the findings reported, so one found again is not repeated */
    size_t nsignatures;
    /* Rewritten when a later caller of their collective joins them: the report names every caller
     * however late its record came. */
    check_run_reported_changing *changing;
    size_t nchanging;
    int deadlock, findings, mismatch;
    size_t left_out;     /* findings of classes --checks did not select */
    size_t notes;        /* findings of severity note (leaks MPI_Finalize cleans up): reported,
                          * and the exit status stays the job's */
    int observed, blind; /* ranks observed (interposed, their calls captured), and not: known once
                            the watch ends */
} check_run;

/* The names of --wildcards, indexed by check_run_options.wildcards (cmd_check.c). */
extern const char *const cmd_check_wildcard_choices[];

#endif
