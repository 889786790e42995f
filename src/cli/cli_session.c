/* The job session shared by every job-running tool: library choice, environment injection, job
 * start, rank discovery, report, exit status (cli.h). */
#include "cli.h"

#include "attach_target.h"

#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "mg_shm.h"
#include "rank_scan.h"
#include "mg_clock.h"
#include "mg_env.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static int choose_flavor(cli_session *s)
{
    mg_mpi_flavor app_flavor = MG_FLAVOR_UNKNOWN;
    mg_mpi_flavor_of_binary(s->launcher.app_path, &app_flavor);
    if (cli_opts.mpi_choice == 1 || cli_opts.mpi_choice == 2) {
        s->flavor = cli_opts.mpi_choice == 1 ? MG_FLAVOR_OPENMPI : MG_FLAVOR_MPICH;
        if (app_flavor == MG_FLAVOR_UNKNOWN || app_flavor == s->flavor)
            return 0;
        /* its ranks would load the other MPI's wrappers and crash in MPI_Init */
        mg_error("--mpi %s, but '%s' links %s's libmpi: give --mpi %s (or --mpi auto)",
                 mg_mpi_flavor_name(s->flavor), s->launcher.app_path,
                 mg_mpi_flavor_name(app_flavor), mg_mpi_flavor_name(app_flavor));
        return MG_EXIT_USAGE;
    }
    s->flavor = s->launcher.flavor;
    if (s->flavor == MG_FLAVOR_UNKNOWN) {
        mg_error("cannot tell which MPI '%s' uses (it links no libmpi directly); say it with "
                 "--mpi openmpi or --mpi mpich",
                 s->launcher.app_path);
        return MG_EXIT_USAGE;
    }
    if (app_flavor == MG_FLAVOR_UNKNOWN || app_flavor == s->flavor)
        return 0;
    mg_error("'%s' links %s but the launcher is %s's: each rank would run as a separate "
             "one-process job, with wrappers of the wrong MPI; use %s's launcher",
             s->launcher.app_path, mg_mpi_flavor_name(app_flavor), mg_mpi_flavor_name(s->flavor),
             mg_mpi_flavor_name(app_flavor));
    return MG_EXIT_USAGE;
}

static int find_library(cli_session *s)
{
    const char *dir = getenv(MG_ENV_LIBDIR);
    char relative[256];
    snprintf(relative, sizeof relative, "lib/libmpiguard-%s.so", mg_mpi_flavor_name(s->flavor));
    if (dir)
        snprintf(s->library, sizeof s->library, "%s/libmpiguard-%s.so", dir,
                 mg_mpi_flavor_name(s->flavor));
    else if (cli_install_path(relative, s->library, sizeof s->library) != MG_OK)
        s->library[0] = '\0';
    char resolved[4096];
    if (!s->library[0] || !realpath(s->library, resolved) || access(resolved, R_OK) != 0) {
        mg_error("the interposition library for %s is missing (looked for %s)",
                 mg_mpi_flavor_name(s->flavor), s->library[0] ? s->library : relative);
        return MG_EXIT_UNAVAILABLE;
    }
    snprintf(s->library, sizeof s->library, "%s", resolved);
    return 0;
}

static void make_token(char *out, size_t len)
{
    unsigned char raw[8];
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) {
        unsigned long fallback = (unsigned long)getpid() * 2654435761UL ^ (unsigned long)time(NULL);
        memcpy(raw, &fallback, sizeof raw);
    }
    for (size_t i = 0; i < sizeof raw && 2 * i + 2 < len; i++)
        snprintf(out + 2 * i, 3, "%02x", raw[i]);
}

static int launcher_error_status(int rc)
{
    switch (rc) {
    case MG_EUNSUPPORTED:
        return MG_EXIT_UNAVAILABLE;
    case MG_ENOENT:
        return MG_EXIT_NOINPUT;
    default:
        return MG_EXIT_USAGE;
    }
}

char **cli_command_line;
int cli_command_words;

/* Settings a tool passes to its modules in the ranks (cli_session_add_env). */
static mg_env_var extra_env[CLI_EXTRA_ENV_MAX];
static int extra_env_count;

int cli_session_add_env(const char *name, const char *value)
{
    if (extra_env_count == CLI_EXTRA_ENV_MAX)
        return MG_EFULL;
    extra_env[extra_env_count].name = name;
    extra_env[extra_env_count].value = value;
    extra_env_count++;
    return MG_OK;
}

/* The ranks' LD_PRELOAD: mpiguard's library first, then whatever the user gives them, from the
 * environment or the launcher's own options (-x, -genv, -env, -genvlist, --export), in its order,
 * each library once; the user's setting is then left out of the command (mg_launcher_build_argv).
 * Another PMPI tool in it comes after mpiguard, which hands each call on to it (interpose_next.h).
 */
static int preload_with_users(const cli_session *s, const char *ours, char **command, int ncommand,
                              char *out, size_t outlen)
{
    char user[8192];
    int given = mg_launcher_user_value(&s->launcher, command, ncommand, MG_ENV_PRELOAD, user,
                                       sizeof user);
    if (given >= 0 && mg_launcher_merge_preload(ours, given ? user : NULL, out, outlen) == 0) {
        if (given && strcmp(out, ours) != 0)
            mg_info("%s: the ranks preload %s (yours after mpiguard's)", s->tool, out);
        return 0;
    }
    mg_error("the LD_PRELOAD given to the ranks is too long to add mpiguard's library to it "
             "(more than %zu bytes)",
             outlen - 1);
    return MG_EXIT_USAGE;
}

/* Names the launcher, the MPI flavour and its library, and the job's token. Returns 0 or an exit
 * status, having said why. */
static int identify_job(cli_session *s, char **command, int ncommand)
{
    char err[1024];
    int rc = mg_launcher_identify(command, ncommand, &s->launcher, err, sizeof err);
    if (rc) {
        mg_error("%s", err);
        /* A launcher that is not installed is unavailable; a missing application is missing input.
         */
        if (rc == MG_ENOENT && strstr(err, "launcher"))
            return MG_EXIT_UNAVAILABLE;
        return launcher_error_status(rc);
    }
    if ((rc = choose_flavor(s)) || (rc = find_library(s)))
        return rc;
    make_token(s->token, sizeof s->token);
    s->selector.token = s->token;
    return 0;
}

/* Creates the session's report and, with --report, writes it at once, so that a tool stopped
 * early still leaves one. Returns 0 or an exit status, with no report left on failure. */
static int open_report(cli_session *s, const char *flavor, const char *launcher,
                       const char *library)
{
    s->report = mg_report_create(s->tool, MPIGUARD_VERSION, cli_command_line, cli_command_words);
    if (!s->report) {
        mg_error("out of memory");
        return MG_EXIT_SOFTWARE;
    }
    mg_report_set_mpi(s->report, flavor, launcher, library);
    if (cli_opts.report_path && cli_session_save(s) != 0) {
        mg_report_destroy(s->report);
        s->report = NULL;
        return MG_EXIT_CANTCREAT;
    }
    return 0;
}

/* mpiguard's libraries for the ranks' LD_PRELOAD into out: the interposition library, and beside
 * it under check (the capture module) the object that defines `_exit` (src/interpose/check_exit.c),
 * so that no other tool overrides a libc function in the application. Returns 0 or 69 after
 * saying which file is missing. */
static int mpiguard_preload(const cli_session *s, const char *modules, char *out, size_t outlen)
{
    if (strcmp(modules, "capture") != 0) {
        snprintf(out, outlen, "%s", s->library);
        return 0;
    }
    const char *slash = strrchr(s->library, '/'); /* s->library is a real path */
    snprintf(out, outlen, "%s:%.*s/libmpiguard-check-exit.so", s->library,
             (int)(slash - s->library), s->library);
    const char *exit_object = out + strlen(s->library) + 1;
    if (access(exit_object, R_OK) != 0) {
        mg_error("check's _exit library is missing (looked for %s)", exit_object);
        return MG_EXIT_UNAVAILABLE;
    }
    return 0;
}

/* Starts the job through its launcher with mpiguard's library preloaded and its settings in the
 * ranks' environment. Returns 0 or an exit status, having said why. */
static int launch_job(cli_session *s, const char *modules, char **command, int ncommand)
{
    char ours[2 * sizeof s->library], preload[8192];
    int rc = mpiguard_preload(s, modules, ours, sizeof ours);
    if (!rc)
        rc = preload_with_users(s, ours, command, ncommand, preload, sizeof preload);
    if (rc)
        return rc;
    /* The ranks on this host leave their state segment to cli_session_finish, which removes them:
     * a rank that ends before a discovery scan has opened its segment is still read then. */
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    mg_env_var vars[4 + CLI_EXTRA_ENV_MAX] = {
        {MG_ENV_PRELOAD, preload},
        {MG_ENV_JOB_TOKEN, s->token},
        {MG_ENV_MODULES, modules},
        {MG_ENV_STATE_KEEP_HOST, host},
    };
    memcpy(vars + 4, extra_env, (size_t)extra_env_count * sizeof *extra_env);
    int nvars = 4 + extra_env_count;
    extra_env_count = 0; /* the settings were for this job (demo runs several in one process) */
    char **job_argv = mg_launcher_build_argv(&s->launcher, command, ncommand, vars, nvars);
    if (!job_argv) {
        mg_error("cannot build the launcher command (a value holds a character %s cannot pass)",
                 mg_launcher_kind_name(s->launcher.kind));
        return MG_EXIT_SOFTWARE;
    }
    if (cli_opts.verbose) {
        fprintf(stderr, "mpiguard: %s: starting (%s, %s):", s->tool,
                mg_launcher_kind_name(s->launcher.kind), mg_mpi_flavor_name(s->flavor));
        for (char **a = job_argv; *a; a++)
            fprintf(stderr, " %s", *a);
        fputc('\n', stderr);
    }
    /* srun (22.05) gives the ranks its own environment's value of a variable that its
     * --export=ALL,NAME=VALUE also sets: `LD_PRELOAD=a srun --export=ALL,LD_PRELOAD=m:a` preloads
     * a alone. What mpiguard sets reaches srun only in --export (the merged LD_PRELOAD holds the
     * user's own); the rest of the environment passes as before. */
    if (s->launcher.kind == MG_LAUNCHER_SRUN)
        for (int v = 0; v < nvars; v++)
            unsetenv(vars[v].name);
    mg_job_install_signal_handlers();
    char err[1024];
    rc = mg_job_start(job_argv, s->token, &s->job, err, sizeof err);
    mg_launcher_free_argv(job_argv);
    if (rc) {
        mg_error("%s", err);
        return rc == MG_ENOENT ? MG_EXIT_UNAVAILABLE : MG_EXIT_SOFTWARE;
    }
    return 0;
}

int cli_session_start(cli_session *s, const char *tool, const char *modules, char **command,
                      int ncommand)
{
    memset(s, 0, sizeof *s);
    s->tool = tool;
    int rc = identify_job(s, command, ncommand);
    if (rc || (rc = open_report(s, mg_mpi_flavor_name(s->flavor), s->launcher.path, s->library)))
        return rc;
    if ((rc = launch_job(s, modules, command, ncommand))) {
        mg_report_destroy(s->report);
        s->report = NULL;
    }
    return rc;
}

/* Notes rank p as found; the first rank that says the world's size sizes the table. Returns 0, or
 * MG_ENOMEM when the table could not be made. */
static int note_rank(cli_session *s, const mg_rank_proc *p)
{
    if (s->nranks == 0 && p->size > 0) {
        cli_rank *ranks = calloc((size_t)p->size, sizeof *ranks);
        if (!ranks)
            return MG_ENOMEM;
        s->ranks = ranks;
        s->nranks = p->size;
    }
    if (p->rank < 0 || p->rank >= s->nranks || s->ranks[p->rank].pid)
        return 0;
    s->ranks[p->rank].pid = p->pid;
    s->found++;
    mg_info("%s: rank %d is pid %d", s->tool, p->rank, p->pid);
    return 0;
}

/* A scan reads two files of every process on the machine: at a tool's polling rate (check drains
 * every 20 ms) it would take a good part of a core from ranks that are starting up. */
static const double discovery_interval = 0.1;

/* Opens the state segment of every rank found that has none open yet. */
static void open_states(cli_session *s)
{
    for (int r = 0; r < s->nranks && s->token[0]; r++)
        if (s->ranks[r].pid && !s->ranks[r].state)
            mg_rank_state_open(s->token, r, &s->ranks[r].state);
}

void cli_session_discover(cli_session *s)
{
    double now = mg_clock_seconds();
    if (now - s->discovered_at < discovery_interval)
        return;
    s->discovered_at = now;
    if (s->nranks > 0 && s->found == s->nranks) {
        open_states(s);
        return;
    }
    mg_rank_proc *procs;
    size_t n;
    if (mg_rank_scan("/proc", &s->selector, &procs, &n) != MG_OK)
        return;
    for (size_t i = 0; i < n && note_rank(s, &procs[i]) == 0; i++)
        ;
    free(procs);
    open_states(s);
}

/* An attached job's token and program come from its first rank's /proc entries. */
static void learn_from_first_rank(cli_session *s)
{
    mg_rank_proc *procs;
    size_t n;
    if (mg_rank_scan("/proc", &s->selector, &procs, &n) != MG_OK)
        return;
    if (n > 0) {
        mg_rank_scan_environ_get("/proc", procs[0].pid, MG_ENV_JOB_TOKEN, s->token,
                                 sizeof s->token);
        char exe[64];
        snprintf(exe, sizeof exe, "/proc/%d/exe", procs[0].pid);
        ssize_t len = readlink(exe, s->launcher.app_path, sizeof s->launcher.app_path - 1);
        s->launcher.app_path[len > 0 ? len : 0] = '\0';
    }
    free(procs);
}

int cli_session_attach(cli_session *s, const char *tool, const char *target)
{
    memset(s, 0, sizeof *s);
    s->tool = tool;
    int is_pid = 0;
    long number = 0;
    const char *id = NULL;
    int rc = attach_target_resolve(target, &is_pid, &number, &id);
    if (rc)
        return rc;
    s->attached = 1;
    if (is_pid)
        s->selector.ancestor_pid = (int)number;
    else
        s->selector.slurm_job_id = id;
    char err[256];
    if (mg_job_attach(is_pid ? (int)number : 0, is_pid ? NULL : id, &s->job, err, sizeof err)) {
        mg_error("%s", err);
        return MG_EXIT_NOINPUT;
    }
    learn_from_first_rank(s);
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/%ld", number);
    if ((rc = open_report(s, NULL, is_pid ? proc : "slurm", NULL))) {
        mg_job_destroy(s->job);
        return rc;
    }
    mg_job_install_signal_handlers();
    return 0;
}

int cli_session_wait(cli_session *s, int timeout_ms)
{
    int finished = 0;
    mg_job_wait(s->job, timeout_ms, &finished);
    return finished;
}

static int all_discovered(const cli_session *s, int with_states)
{
    if (s->nranks == 0 || s->found < s->nranks)
        return 0;
    for (int r = 0; with_states && r < s->nranks; r++)
        if (!s->ranks[r].state)
            return 0;
    return 1;
}

/* A segment "<rank>" of the job's token: the rank it names, found by what it published. */
static int note_rank_by_state(const char *suffix, void *ctx)
{
    cli_session *s = ctx;
    char *end;
    long rank = strtol(suffix, &end, 10);
    const mg_rank_state *state;
    if (*end || end == suffix || rank < 0 || rank > INT_MAX ||
        mg_rank_state_open(s->token, (int)rank, &state) != MG_OK)
        return 0;
    mg_rank_proc p = {.pid = state->pid, .rank = state->rank, .size = state->size};
    if (p.rank != rank || note_rank(s, &p) != 0 || p.rank >= s->nranks || s->ranks[p.rank].state)
        mg_rank_state_close(state);
    else
        s->ranks[p.rank].state = state;
    return 0;
}

void cli_session_wait_end(cli_session *s, int with_states)
{
    while (!cli_session_wait(s, all_discovered(s, with_states) ? 60000 : 200))
        cli_session_discover(s);
    cli_session_discover(s);
    /* The segments of this host's ranks stay until cli_session_finish removes them
     * (MPIGUARD_STATE_KEEP_HOST): a rank that ended before a scan saw it, or before a scan opened
     * its segment, is found and read from them now. */
    if (s->token[0] && !all_discovered(s, 1)) {
        char prefix[96];
        snprintf(prefix, sizeof prefix, "mpiguard-%s-", s->token);
        mg_shm_each_prefixed(prefix, note_rank_by_state, s);
    }
    open_states(s);
}

int cli_session_save(cli_session *s)
{
    if (!cli_opts.report_path)
        return 0;
    char err[1024];
    if (mg_report_write(s->report, cli_opts.report_path, err, sizeof err) != MG_OK) {
        mg_error("%s", err);
        return MG_EXIT_CANTCREAT;
    }
    return 0;
}

int cli_session_finish(cli_session *s, int finding_status)
{
    int job_status = mg_job_exit_status(s->job);
    int signal_received = mg_job_interrupting_signal(s->job);
    if (mg_job_leftovers_killed(s->job))
        mg_warn("%s: killed %d rank process(es) that outlived the launcher", s->tool,
                mg_job_leftovers_killed(s->job));
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    for (int r = 0; r < s->nranks; r++)
        if (s->ranks[r].pid)
            mg_report_add_rank(s->report, r, s->ranks[r].pid,
                               s->ranks[r].host[0] ? s->ranks[r].host : host);
    /* A job attached to runs on after a signal to mpiguard (mg_job_wait): let go of, not ended. */
    int released = signal_received && s->attached && job_status < 0;
    const char *outcome = released                             ? "released"
                          : signal_received                    ? "interrupted"
                          : finding_status && !s->ended_itself ? "stopped"
                          : job_status == 0 && !finding_status ? "completed"
                                                               : "failed";
    mg_report_set_exit(s->report, job_status, outcome);
    if (released && !cli_opts.quiet)
        fprintf(stderr,
                "mpiguard: %s: stopped watching on signal %d; the job attached to runs on\n",
                s->tool, signal_received);
    else if (signal_received && !cli_opts.quiet)
        fprintf(stderr, "mpiguard: %s: interrupted by signal %d (%s): the job was stopped%s\n",
                s->tool, signal_received, strsignal(signal_received),
                finding_status ? "" : "; nothing found up to then");
    int save_status = cli_session_save(s);
    for (int r = 0; r < s->nranks; r++)
        mg_rank_state_close(s->ranks[r].state);
    if (s->token[0] && !s->attached)
        mg_rank_state_remove_all(s->token);
    free(s->ranks);
    mg_report_destroy(s->report);
    mg_job_destroy(s->job);
    if (signal_received)
        return MG_EXIT_SIGNAL_BASE + signal_received;
    if (finding_status)
        return finding_status;
    if (save_status)
        return save_status;
    return job_status;
}
