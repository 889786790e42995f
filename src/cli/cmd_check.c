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

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const char *const on_deadlock_choices[] = {"kill", "report", NULL};
const char *const cmd_check_wildcard_choices[] = {"probe", "decide", NULL};

/* Starts the agent processes, streaming to a listener the run's secret guards: with
 * --agent-launcher, one per node behind its words, owning every rank of its node and judging each
 * (the listener on this node's address the others reach), and with --detector-leaves K each
 * streaming through a leaf it starts beside it on its node (K nodes: the leaves are known by
 * number, as on one machine); else o->agents on this machine, each owning share k of n, a block of
 * ranks (on the loopback). */
static int start_agents(check_run *r)
{
    char exe[4096], address[300], share[16], shares[16], err[256];
    uint8_t secret[AGENT_PROTO_SECRET_BYTES];
    const char *launcher = r->o->agent_launcher;
    int n = launcher ? 1 : (int)r->o->agents;
    int expected = launcher ? (int)r->o->detector_leaves : n;
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    int fd = agent_start_listen(!launcher, 1, address, sizeof address, err, sizeof err);
    if (fd < 0)
        mg_log_error("check: %s", err);
    if (len <= 0 || fd < 0 || agent_start_secret(secret) != MG_ERROR_OK ||
        check_remote_create(fd, expected, secret, &r->feed.remote) != MG_ERROR_OK ||
        !(r->agent_jobs = calloc((size_t)n, sizeof *r->agent_jobs)))
        return MG_ERROR_ESYS;
    exe[len] = '\0';
    mg_log_info("check: the agents stream to %s", address);
    snprintf(shares, sizeof shares, "%d", launcher ? expected : n);
    for (int k = 0; k < n; k++) {
        snprintf(share, sizeof share, "%d", k);
        char *local[] = {exe,   "agent",    "check", "--connect", address,         "--share",
                         share, "--shares", shares,  "--token",   r->s->job.token, NULL};
        char *node[16] = {exe,
                          "agent",
                          "check",
                          "--connect",
                          address,
                          "--token",
                          r->s->job.token,
                          "--library",
                          r->s->job.library,
                          "--mpi",
                          (char *)mg_mpi_flavor_name(r->s->job.flavor)};
        int words = 11;
        if (expected) {
            node[words++] = "--shares";
            node[words++] = shares;
        }
        /* what each node's agent found and when, beside what this process says, when a rank
         * goes unobserved on another node */
        if (cli_options.verbose)
            node[words++] = "-v";
        if (agent_start_launch(launcher, launcher ? node : local, &r->agent_jobs[k], err,
                               sizeof err) != MG_ERROR_OK) {
            mg_log_error("check: %s", err);
            return MG_ERROR_ESYS;
        }
        r->nagent_jobs++;
    }
    return MG_ERROR_OK;
}

/* Makes fd inherited by the processes started next (on), or not (off). */
static int inherit(int fd, int on)
{
    int flags = fcntl(fd, F_GETFD);
    return flags < 0 ? -1 : fcntl(fd, F_SETFD, on ? flags & ~FD_CLOEXEC : flags | FD_CLOEXEC);
}

/* Starts `mpiguard agent ...` (argv) on this machine with the descriptors fds[0..n) inherited by
 * it alone. */
static int launch_with(check_run *r, char *const *argv, const int *fds, int n)
{
    char err[256];
    int rc = MG_ERROR_OK;
    for (int i = 0; i < n && rc == MG_ERROR_OK; i++)
        rc = inherit(fds[i], 1) == 0 ? MG_ERROR_OK : MG_ERROR_ESYS;
    rc = rc ? rc : agent_start_launch(NULL, argv, &r->agent_jobs[r->nagent_jobs], err, sizeof err);
    for (int i = 0; i < n; i++)
        inherit(fds[i], 0);
    if (rc != MG_ERROR_OK)
        mg_log_error("check: %s", rc == MG_ERROR_ESYS ? strerror(errno) : err);
    else
        r->nagent_jobs++;
    return rc;
}

/* Starts the tree of detectors of --detector-leaves K: per share k of K, an agent draining its
 * rings into a leaf stage (tbon_stage.h) over a socketpair, and the leaf streaming to this
 * process, the root, over another, which the agents' listener code reads as it reads agents. */
static int start_leaves(check_run *r)
{
    char exe[4096], share[16], shares[16], to_leaf[16], from_agent[16], to_root[32];
    uint8_t secret[AGENT_PROTO_SECRET_BYTES];
    int n = (int)r->o->detector_leaves;
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0 || agent_start_secret(secret) != MG_ERROR_OK ||
        check_remote_create(-1, n, secret, &r->feed.remote) != MG_ERROR_OK ||
        !(r->agent_jobs = calloc(2 * (size_t)n, sizeof *r->agent_jobs)))
        return MG_ERROR_ESYS;
    exe[len] = '\0';
    snprintf(shares, sizeof shares, "%d", n);
    for (int k = 0; k < n; k++) {
        int agent_leaf[2], leaf_root[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, agent_leaf) != 0)
            return MG_ERROR_ESYS;
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, leaf_root) != 0) {
            close(agent_leaf[0]);
            close(agent_leaf[1]);
            return MG_ERROR_ESYS;
        }
        snprintf(share, sizeof share, "%d", k);
        snprintf(to_leaf, sizeof to_leaf, "%d", agent_leaf[0]);
        snprintf(from_agent, sizeof from_agent, "%d", agent_leaf[1]);
        snprintf(to_root, sizeof to_root, "%d/%d", leaf_root[1], leaf_root[1]);
        char *agent[] = {exe,   "agent",    "check", "--output", to_leaf,         "--share",
                         share, "--shares", shares,  "--token",  r->s->job.token, NULL};
        char *leaf[] = {exe,    "agent",    "stage",    "--share",  share,   "--shares",
                        shares, "--inputs", from_agent, "--output", to_root, NULL};
        const int leaf_fds[] = {agent_leaf[1], leaf_root[1]};
        int rc = launch_with(r, agent, agent_leaf, 1);
        rc = rc ? rc : launch_with(r, leaf, leaf_fds, 2);
        close(agent_leaf[0]);
        close(agent_leaf[1]);
        close(leaf_root[1]);
        if (rc != MG_ERROR_OK)
            close(leaf_root[0]);
        /* the root reads the leaf's stream (its AUTH frame first) as it reads an agent's */
        rc = rc ? rc : check_remote_adopt_leaf(r->feed.remote, leaf_root[0], k, n);
        if (rc != MG_ERROR_OK)
            return rc;
    }
    return MG_ERROR_OK;
}

static void stop_agents(check_run *r)
{
    for (int k = 0; k < r->nagent_jobs; k++)
        job_destroy(r->agent_jobs[k]);
    free(r->agent_jobs);
    check_remote_destroy(r->feed.remote);
}

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
    int rc = site_resolver_create(&f->sites);
    if (rc == MG_ERROR_OK)
        rc = o->detector_leaves && !o->agent_launcher ? start_leaves(&r)
             : o->agents || o->agent_launcher         ? start_agents(&r)
                                              : check_agent_create(s->job.token, 0, 1, &f->agent);
    if (rc != MG_ERROR_OK) {
        mg_log_error("check: cannot start the agents: %s", mg_error_string(rc));
        job_stop(s->job.process);
        stop_agents(&r);
        check_feed_destroy(f);
        return cli_session_finish(s, MG_EXIT_SOFTWARE);
    }
    int status = check_watch(&r);
    /* A launcher that failed (Open MPI refusing root, a missing host) ends the job before any
     * rank exists: nothing was checked, which must not read as a clean line. */
    int none_found = s->job.nranks == 0;
    if (!status && none_found && !cli_options.quiet)
        fprintf(stderr, "mpiguard: check: the job ended before any of its ranks was found: nothing "
                        "was checked\n");
    else if (!status && !r.findings && !r.blind && !cli_options.quiet &&
             !job_interrupting_signal(s->job.process))
        print_clean_line(&r);
    check_feed_destroy(f);
    stop_agents(&r);
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
        options, argc, argv, 0, NULL, 0, args, done);
}

/* MG_EXIT_USAGE, said with the usage line, for options that cannot go together or a missing
 * command; else 0, with the selected classes set in o. */
static int refuse_bad_options(check_run_options *o, const char *checks,
                              const mg_options_parsed_args *args)
{
    char err[512];
    if (report_class_select(checks, o->selected, sizeof o->selected, err, sizeof err) !=
        MG_ERROR_OK)
        mg_log_error("%s", err);
    else if (o->agents && o->agent_launcher)
        mg_log_error("--agents and --agent-launcher exclude each other: agents on this machine, or "
                     "one per node");
    else if (o->detector_leaves && o->agents)
        mg_log_error("--detector-leaves starts its own agents on this machine (or, with "
                     "--agent-launcher, a leaf beside each node's agent): it excludes --agents");
    else if (!args->command || args->ncommand == 0)
        mg_log_error("missing '--' and the launcher command");
    else
        return 0;
    fprintf(stderr, "usage: %s\n", usage);
    return MG_EXIT_USAGE;
}

int cmd_check(int argc, char **argv)
{
    check_run_options o = {.quiet_time = 1.0};
    const char *checks = "all";
    mg_options_parsed_args args;
    int done;
    int rc = parse(argc, argv, &o, &checks, &args, &done);
    if (rc || done || (rc = refuse_bad_options(&o, checks, &args)))
        return rc;
    cli_session s;
    if ((rc = cli_session_start(&s, "check", "capture", args.command, args.ncommand)))
        return rc;
    return check_job(&s, &o);
}
