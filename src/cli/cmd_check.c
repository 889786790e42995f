/* `mpiguard check`: runs a job with the capture module, drains the ranks' event rings into the
 * deadlock detector, runs the wait-for analysis on its triggers, reports deadlocks, potential
 * deadlocks and collective mismatches, and stops a deadlocked job (docs/design/check.md;
 * docs/check.md). This file takes the options and starts and ends the run and its agents;
 * check_watch.c watches the job, check_report.c writes the findings. */
#include "agent_start.h"
#include "check_run.h"
#include "check_watch.h"

#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "report_class.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const on_deadlock_choices[] = {"kill", "report", NULL};
const char *const cmd_check_wildcard_choices[] = {"probe", "decide", NULL};

/* Starts the agent processes, streaming to a listener the run's secret guards: with
 * --agent-launcher, one per node behind its words, owning every rank of its node and judging each
 * (the listener on this node's address the others reach); else o->agents on this machine, each
 * owning rank % n == k (on the loopback). */
static int start_agents(check_run *r)
{
    char exe[4096], address[300], share[16], shares[16], err[256];
    uint8_t secret[AGENT_SECRET_BYTES];
    const char *launcher = r->o->agent_launcher;
    int n = launcher ? 1 : (int)r->o->agents;
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    int fd = agent_start_listen(!launcher, 1, address, sizeof address, err, sizeof err);
    if (fd < 0)
        mg_error("check: %s", err);
    if (len <= 0 || fd < 0 || agent_start_secret(secret) != MG_OK ||
        check_remote_create(fd, launcher ? 0 : n, secret, &r->remote) != MG_OK ||
        !(r->agent_jobs = calloc((size_t)n, sizeof *r->agent_jobs)))
        return MG_ESYS;
    exe[len] = '\0';
    mg_info("check: the agents stream to %s", address);
    snprintf(shares, sizeof shares, "%d", n);
    for (int k = 0; k < n; k++) {
        snprintf(share, sizeof share, "%d", k);
        char *local[] = {exe,   "agent",    "check", "--connect", address,     "--share",
                         share, "--shares", shares,  "--token",   r->s->token, NULL};
        char *node[] = {exe,
                        "agent",
                        "check",
                        "--connect",
                        address,
                        "--token",
                        r->s->token,
                        "--library",
                        r->s->library,
                        "--mpi",
                        (char *)mg_mpi_flavor_name(r->s->flavor),
                        NULL};
        if (agent_start_launch(launcher, launcher ? node : local, &r->agent_jobs[k], err,
                               sizeof err) != MG_OK) {
            mg_error("check: %s", err);
            return MG_ESYS;
        }
        r->nagent_jobs++;
    }
    return MG_OK;
}

static void stop_agents(check_run *r)
{
    for (int k = 0; k < r->nagent_jobs; k++)
        mg_job_destroy(r->agent_jobs[k]);
    free(r->agent_jobs);
    check_remote_destroy(r->remote);
}

/* "nothing found in 4 of 4 ranks observed (checked: deadlock, ...; not selected: ...)". */
/* What check does not look at yet, said on the clean line so that a clean run is not read as
 * more than it is (docs/check.md, "Limits"). */
#define CHECK_NOT_COVERED                                                                          \
    "leaks of error handlers, datatypes made by constructors not wrapped (darray, "                \
    "hindexed_block), receive buffers the program reads or writes before their completion, "       \
    "one-sided accesses of two origins outside fence epochs, passive-target lock waits, errors "   \
    "MPI raises on windows and files"

static void print_clean_line(const check_run *r)
{
    char checked[2048], left[2048];
    mg_report_class_list(r->o->selected, 1, checked, sizeof checked);
    mg_report_class_list(r->o->selected, 0, left, sizeof left);
    fprintf(stderr,
            "mpiguard: check: nothing found in %d of %d ranks observed (checked: %s; not checked: "
            "%s",
            r->observed, r->s->nranks, checked, CHECK_NOT_COVERED);
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
static int check_job(cli_session *s, const check_options *o)
{
    check_run r = {.s = s, .o = o};
    int rc = site_resolver_create(&r.sites);
    if (rc == MG_OK)
        rc = o->agents || o->agent_launcher ? start_agents(&r)
                                            : check_agent_create(s->token, 0, 1, &r.agent);
    if (rc != MG_OK) {
        mg_error("check: cannot start the agents: %s", mg_strerror(rc));
        mg_job_stop(s->job);
        stop_agents(&r);
        site_resolver_destroy(r.sites);
        return cli_session_finish(s, MG_EXIT_SOFTWARE);
    }
    int status = check_watch(&r);
    /* A launcher that failed (Open MPI refusing root, a missing host) ends the job before any
     * rank exists: nothing was checked, which must not read as a clean line. */
    int none_found = s->nranks == 0;
    if (!status && none_found && !cli_opts.quiet)
        fprintf(stderr, "mpiguard: check: the job ended before any of its ranks was found: nothing "
                        "was checked\n");
    else if (!status && !r.findings && !r.blind && !cli_opts.quiet &&
             !mg_job_interrupting_signal(s->job))
        print_clean_line(&r);
    deadlock_detector_destroy(r.det);
    check_agent_destroy(r.agent);
    stop_agents(&r);
    check_agent_remove_rings(s->token);
    site_resolver_destroy(r.sites);
    free(r.blocked);
    free(r.captured);
    free(r.ended);
    free(r.rank_records);
    free(r.agent_of);
    free(r.signatures);
    free(r.mismatches);
    /* Findings that did not stop the job leave its outcome as it was; a job that then ended 0
     * exits MG_EXIT_FINDINGS, or MG_EXIT_UNOBSERVED with a rank it could not observe or none. */
    rc = cli_session_finish(s, status);
    if (status || rc)
        return rc;
    return r.findings ? MG_EXIT_FINDINGS : r.blind || none_found ? MG_EXIT_UNOBSERVED : 0;
}

static const char usage[] = "mpiguard check [options] -- <launcher> <args>";

/* Parses check's command line into o, checks (the --checks list) and args; cli_parse's status. */
static int parse(int argc, char **argv, check_options *o, const char **checks, mg_parsed_args *args,
                 int *done)
{
    const mg_option options[] = {
        {"on-deadlock", 0, MG_OPT_CHOICE, &o->on_deadlock, "kill|report",
         "stop the job on a confirmed deadlock (kill, default) or only report it",
         on_deadlock_choices, 0, 0},
        {"quiet-time", 0, MG_OPT_DOUBLE, &o->quiet_time, "SECONDS",
         "analyse when no new call was seen for this long (default 1)", NULL, 0.05, 3600},
        {"buffered-sends", 0, MG_OPT_FLAG, &o->buffered_sends, NULL,
         "treat standard-mode sends as buffered (no potential deadlocks from them)", NULL, 0, 0},
        {"wildcards", 0, MG_OPT_CHOICE, &o->wildcards, "probe|decide",
         "wildcard receives without a decision: explore the matches (probe, default) or also "
         "force one when queues grow (decide; may give false positives)",
         cmd_check_wildcard_choices, 0, 0},
        {"checks", 0, MG_OPT_LIST, checks, "LIST",
         "the classes to report: groups (deadlock, collective, type, args, rma, buffers, "
         "lifecycle, races) or class names, comma-separated; -NAME leaves one out (default all; "
         "docs/check.md)",
         NULL, 0, 0},
        {"agent-launcher", 0, MG_OPT_STRING, &o->agent_launcher, "CMD",
         "a job on several nodes: start one agent per node with CMD, e.g. 'srun --overlap "
         "--ntasks-per-node=1' (docs/check.md, \"Across nodes\")",
         NULL, 0, 0},
        {"agents", 0, MG_OPT_INT | MG_OPT_HIDDEN, &o->agents, "N",
         "drain the rings with N agent processes streaming over TCP (loopback), as on several "
         "nodes; default 0: in mpiguard itself",
         NULL, 0, 256},
        {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0},
    };
    return cli_parse(
        usage,
        "Run an MPI job and check it while it runs: deadlocks (MUST's wait-for graphs\n"
        "and OR-knots), potential deadlocks hidden by buffering, collective mismatches,\n"
        "type mismatches and truncations of matched messages, invalid arguments,\n"
        "message races on wildcard receives (warnings).\n"
        "A confirmed deadlock stops the job (exit 82).",
        options, argc, argv, 0, NULL, 0, args, done);
}

/* MG_EXIT_USAGE, said with the usage line, for options that cannot go together or a missing
 * command; else 0, with the selected classes set in o. */
static int refuse_bad_options(check_options *o, const char *checks, const mg_parsed_args *args)
{
    char err[512];
    if (mg_report_class_select(checks, o->selected, sizeof o->selected, err, sizeof err) != MG_OK)
        mg_error("%s", err);
    else if (o->agents && o->agent_launcher)
        mg_error("--agents and --agent-launcher exclude each other: agents on this machine, or "
                 "one per node");
    else if (!args->command || args->ncommand == 0)
        mg_error("missing '--' and the launcher command");
    else
        return 0;
    fprintf(stderr, "usage: %s\n", usage);
    return MG_EXIT_USAGE;
}

int cmd_check(int argc, char **argv)
{
    check_options o = {.quiet_time = 1.0};
    const char *checks = "all";
    mg_parsed_args args;
    int done;
    int rc = parse(argc, argv, &o, &checks, &args, &done);
    if (rc || done || (rc = refuse_bad_options(&o, checks, &args)))
        return rc;
    cli_session s;
    if ((rc = cli_session_start(&s, "check", "capture", args.command, args.ncommand)))
        return rc;
    return check_job(&s, &o);
}
