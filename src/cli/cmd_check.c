/* `mpiguard check`: runs a job with the capture module, drains the ranks' event rings into the
 * deadlock detector, runs the wait-for analysis on its triggers, reports deadlocks, potential
 * deadlocks and collective mismatches, and stops a deadlocked job (docs/design/check.md;
 * docs/check.md). This file takes the options and starts and ends the run (its agents:
 * check_agents.h); check_watch.c watches the job, check_report.c writes the findings. */
#include "check_run.h"
#include "check_watch.h"

#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "report_class.h"

#include <stdio.h>

static const char *const on_deadlock_choices[] = {"kill", "report", NULL};
const char *const cmd_check_wildcard_choices[] = {"probe", "decide", NULL};

/* "nothing found in 4 of 4 ranks observed (checked: deadlock, ...; not selected: ...)". */
/* What check does not look at yet, said on the clean line so that a clean run is not read as
 * more than it is (docs/check.md, "Limits"). */
#define CHECK_NOT_COVERED                                                                          \
    "datatypes made by constructors not wrapped (darray, hindexed_block), receive buffers the "    \
    "program reads or writes before their completion, loads and stores to a window's memory, "     \
    "passive-target lock waits, errors MPI raises on windows and files"

static void print_clean_line(const check_run *r)
{
    char checked[2048], left[2048];
    report_class_list(r->o->selected, 1, checked, sizeof checked);
    report_class_list(r->o->selected, 0, left, sizeof left);
    fprintf(stderr,
            "mpiguard: check: nothing found in %d of %d ranks observed (checked: %s; not checked: "
            "%s",
            r->observed, r->s->job.nranks, checked, CHECK_NOT_COVERED);
    report_render_unmodelled(report_tool_data(r->s->report), "; ", stderr);
    if (left[0])
        fprintf(stderr, "; not selected by --checks: %s", left);
    if (r->left_out)
        fprintf(stderr, "; %zu finding%s of those left out", r->left_out,
                r->left_out == 1 ? "" : "s");
    if (r->notes)
        fprintf(stderr, "; %zu note%s in the report: leaks that MPI_Finalize cleans up", r->notes,
                r->notes == 1 ? "" : "s");
    fputs(")\n", stderr);
}

/* Checks the started job of s to its end, with the agents o asks for; returns the exit status
 * (the session finished). */
static int check_job(cli_session *s, const check_run_options *o)
{
    check_run r = {.s = s,
                   .o = o,
                   .feed = {.job = &s->job,
                            .across_nodes = o->agent_launcher != NULL,
                            .leaves = o->detector_leaves,
                            .buffered_sends = o->buffered_sends,
                            .deciding = o->wildcards == 1}};
    check_feed *f = &r.feed;
    const check_agents_params ap = {o->agent_launcher, o->agents, o->detector_leaves,
                                    cli_options.verbose};
    int rc = site_resolver_create(&f->sites);
    if (rc == MG_ERROR_OK)
        rc = check_agents_start(&r.agents, f, &ap);
    if (rc != MG_ERROR_OK) {
        mg_log_error("check: cannot start the agents: %s", mg_error_string(rc));
        job_stop(s->job.process, JOB_STOP_GRACE_SECONDS);
        check_agents_stop(&r.agents, f);
        check_feed_destroy(f);
        return cli_session_finish(s, MG_EXIT_SOFTWARE);
    }
    int status = check_watch(&r);
    /* A launcher that failed (Open MPI refusing root, a missing host) ends the job before any
     * rank exists: nothing was checked, which must not read as a clean line. */
    int none_found = s->job.nranks == 0;
    if (!status && none_found)
        cli_options_say("check", "the job ended before any of its ranks was found: nothing was "
                                 "checked");
    else if (!status && !r.findings && !r.blind && !cli_options.quiet &&
             !job_interrupting_signal(s->job.process))
        print_clean_line(&r);
    check_feed_destroy(f);
    check_agents_stop(&r.agents, f);
    check_agent_remove_rings(s->job.token);
    free(r.signatures);
    free(r.changing);
    /* Findings that did not stop the job leave its outcome as it was; a job that then ended 0
     * exits MG_EXIT_FINDINGS, or MG_EXIT_UNOBSERVED with a rank it could not observe or none. */
    rc = cli_session_finish(s, status);
    if (status || rc)
        return rc;
    return r.findings ? MG_EXIT_FINDINGS : r.blind || none_found ? MG_EXIT_UNOBSERVED : 0;
}

static const char usage[] = "mpiguard check [options] -- <launcher> <args>";

/* Parses check's command line into o, checks (the --checks list) and args; cli_options_parse's
 * status. */
static int parse(int argc, char **argv, check_run_options *o, const char **checks,
                 mg_options_parsed_args *args, int *done)
{
    const mg_options_option options[] = {
        {"on-deadlock", 0, MG_OPTIONS_CHOICE, &o->on_deadlock, "kill|report",
         "stop the job on a confirmed deadlock (kill, default) or only report it",
         on_deadlock_choices, 0, 0},
        {"quiet-time", 0, MG_OPTIONS_DOUBLE, &o->quiet_time, "SECONDS",
         "analyse when no new call was seen for this long (default 1)", NULL, 0.05, 3600},
        {"buffered-sends", 0, MG_OPTIONS_FLAG, &o->buffered_sends, NULL,
         "treat standard-mode sends as buffered (no potential deadlocks from them)", NULL, 0, 0},
        {"wildcards", 0, MG_OPTIONS_CHOICE, &o->wildcards, "probe|decide",
         "wildcard receives without a decision: explore the matches (probe, default) or also "
         "force one when queues grow (decide; may give false positives)",
         cmd_check_wildcard_choices, 0, 0},
        {"checks", 0, MG_OPTIONS_LIST, checks, "LIST",
         "the classes to report: groups (deadlock, collective, type, args, rma, buffers, "
         "lifecycle, races) or class names, comma-separated; -NAME leaves one out (default all; "
         "docs/check.md)",
         NULL, 0, 0},
        {"agent-launcher", 0, MG_OPTIONS_STRING, &o->agent_launcher, "CMD",
         "a job on several nodes: start one agent per node with CMD, e.g. 'srun --overlap "
         "--ntasks-per-node=1' (docs/check.md, \"Across nodes\")",
         NULL, 0, 0},
        {"agents", 0, MG_OPTIONS_INT | MG_OPTIONS_HIDDEN, &o->agents, "N",
         "drain the rings with N agent processes streaming over TCP (loopback), as on several "
         "nodes; default 0: in mpiguard itself",
         NULL, 0, 256},
        {"detector-leaves", 0, MG_OPTIONS_INT, &o->detector_leaves, "K",
         "check with a tree of detectors: K leaf processes, each matching the calls of a block of "
         "ranks, under mpiguard's detector; with --agent-launcher, K is the job's nodes, a leaf "
         "beside each node's agent (docs/check.md, \"A tree of detectors\")",
         NULL, 1, 256},
        {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0},
    };
    return cli_options_parse(
        usage,
        "Run an MPI job and check it while it runs: deadlocks (MUST's wait-for graphs\n"
        "and OR-knots), potential deadlocks hidden by buffering, collective mismatches,\n"
        "type mismatches and truncations of matched messages, invalid arguments,\n"
        "message races on wildcard receives (warnings).\n"
        "A confirmed deadlock stops the job (exit 82).",
        options, argc, argv, CLI_COMMAND, NULL, 0, args, done);
}

/* MG_EXIT_USAGE, said with the usage line, for options that cannot go together; else 0, with the
 * selected classes set in o. */
static int refuse_bad_options(check_run_options *o, const char *checks)
{
    char err[512];
    if (report_class_select(checks, o->selected, sizeof o->selected, err, sizeof err) !=
        MG_ERROR_OK)
        return cli_options_refuse(usage, "%s", err);
    if (o->agents && o->agent_launcher)
        return cli_options_refuse(usage, "--agents and --agent-launcher exclude each other: agents "
                                         "on this machine, or one per node");
    if (o->detector_leaves && o->agents)
        return cli_options_refuse(usage,
                                  "--detector-leaves starts its own agents on this machine (or, "
                                  "with --agent-launcher, a leaf beside each node's agent): it "
                                  "excludes --agents");
    return 0;
}

int cmd_check(int argc, char **argv)
{
    check_run_options o = {.quiet_time = 1.0};
    const char *checks = "all";
    mg_options_parsed_args args;
    int done;
    int rc = parse(argc, argv, &o, &checks, &args, &done);
    if (rc || done || (rc = refuse_bad_options(&o, checks)))
        return rc;
    cli_session s;
    if ((rc = cli_session_start(&s, "check", "capture", args.command, args.ncommand)))
        return rc;
    return check_job(&s, &o);
}
