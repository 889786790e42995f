/* A job a tool runs or watches: library choice, environment injection, start or attach, rank
 * discovery, clean-up (job_session.h). */
#include "job_session.h"

#include "attach_target.h"

#include "mg_clock.h"
#include "mg_env.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "mg_shm.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static int choose_flavor(job_session *js, mg_mpi_flavor requested)
{
    mg_mpi_flavor app_flavor = MG_MPI_FLAVOR_UNKNOWN;
    mpi_flavor_of_binary(js->launcher.app_path, &app_flavor);
    js->flavor = launcher_job_flavor(&js->launcher, requested);
    if (js->flavor == MG_MPI_FLAVOR_UNKNOWN) {
        mg_log_error("cannot tell which MPI '%s' uses (it links no libmpi directly); say it with "
                     "--mpi openmpi or --mpi mpich",
                     js->launcher.app_path);
        return MG_EXIT_USAGE;
    }
    if (app_flavor == MG_MPI_FLAVOR_UNKNOWN || app_flavor == js->flavor)
        return 0;
    if (requested != MG_MPI_FLAVOR_UNKNOWN) {
        /* its ranks would load the other MPI's wrappers and crash in MPI_Init */
        mg_log_error("--mpi %s, but '%s' links %s's libmpi: give --mpi %s (or --mpi auto)",
                     mg_mpi_flavor_name(js->flavor), js->launcher.app_path,
                     mg_mpi_flavor_name(app_flavor), mg_mpi_flavor_name(app_flavor));
        return MG_EXIT_USAGE;
    }
    mg_log_error("'%s' links %s but the launcher is %s's: each rank would run as a separate "
                 "one-process job, with wrappers of the wrong MPI; use %s's launcher",
                 js->launcher.app_path, mg_mpi_flavor_name(app_flavor),
                 mg_mpi_flavor_name(js->flavor), mg_mpi_flavor_name(app_flavor));
    return MG_EXIT_USAGE;
}

static int find_library(job_session *js, const char *library_dir)
{
    const char *dir = getenv(MG_ENV_LIBDIR);
    snprintf(js->library, sizeof js->library, "%s/libmpiguard-%s.so", dir ? dir : library_dir,
             mg_mpi_flavor_name(js->flavor));
    char resolved[4096];
    if (!realpath(js->library, resolved) || access(resolved, R_OK) != 0) {
        mg_log_error("the interposition library for %s is missing (looked for %s)",
                     mg_mpi_flavor_name(js->flavor), js->library);
        return MG_EXIT_UNAVAILABLE;
    }
    snprintf(js->library, sizeof js->library, "%s", resolved);
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
    case MG_ERROR_EUNSUPPORTED:
        return MG_EXIT_UNAVAILABLE;
    case MG_ERROR_ENOENT:
        return MG_EXIT_NOINPUT;
    default:
        return MG_EXIT_USAGE;
    }
}

/* Settings a tool passes to its modules in the ranks (job_session_add_env). */
static launcher_env_var extra_env[JOB_SESSION_EXTRA_ENV_MAX];
static int extra_env_count;

int job_session_add_env(const char *name, const char *value)
{
    if (extra_env_count == JOB_SESSION_EXTRA_ENV_MAX)
        return MG_ERROR_EFULL;
    extra_env[extra_env_count].name = name;
    extra_env[extra_env_count].value = value;
    extra_env_count++;
    return MG_ERROR_OK;
}

/* The ranks' LD_PRELOAD: mpiguard's library first, then whatever the user gives them, from the
 * environment or the launcher's own options (-x, -genv, -env, -genvlist, --export), in its order,
 * each library once; the user's setting is then left out of the command (launcher_build_argv).
 * Another PMPI tool in it comes after mpiguard, which hands each call on to it (interpose_next.h).
 */
static int preload_with_users(const job_session *js, const char *ours, char **command, int ncommand,
                              char *out, size_t outlen)
{
    char user[8192];
    int given = launcher_user_value(&js->launcher, command, ncommand, MG_ENV_PRELOAD, user,
                                    sizeof user);
    if (given >= 0 && launcher_merge_preload(ours, given ? user : NULL, out, outlen) == 0) {
        if (given && strcmp(out, ours) != 0)
            mg_log_info("%s: the ranks preload %s (yours after mpiguard's)", js->tool, out);
        return 0;
    }
    mg_log_error("the LD_PRELOAD given to the ranks is too long to add mpiguard's library to it "
                 "(more than %zu bytes)",
                 outlen - 1);
    return MG_EXIT_USAGE;
}

int job_session_identify(job_session *js, const char *tool, mg_mpi_flavor requested,
                         const char *library_dir, char **command, int ncommand)
{
    memset(js, 0, sizeof *js);
    js->tool = tool;
    char err[1024];
    int rc = launcher_identify(command, ncommand, &js->launcher, err, sizeof err);
    if (rc) {
        mg_log_error("%s", err);
        /* A launcher that is not installed is unavailable; a missing application is missing input.
         */
        if (rc == MG_ERROR_ENOENT && strstr(err, "launcher"))
            return MG_EXIT_UNAVAILABLE;
        return launcher_error_status(rc);
    }
    if ((rc = choose_flavor(js, requested)) || (rc = find_library(js, library_dir)))
        return rc;
    make_token(js->token, sizeof js->token);
    js->selector.token = js->token;
    return 0;
}
/* mpiguard's libraries for the ranks' LD_PRELOAD into out: the interposition library, and beside
 * it under check (the capture module) the object that defines `_exit` (src/interpose/check_exit.c),
 * so that no other tool overrides a libc function in the application. Returns 0 or 69 after
 * saying which file is missing. */
static int mpiguard_preload(const job_session *js, const char *modules, char *out, size_t outlen)
{
    if (!mg_env_module_listed(modules, "capture")) {
        snprintf(out, outlen, "%s", js->library);
        return 0;
    }
    const char *slash = strrchr(js->library, '/'); /* js->library is a real path */
    snprintf(out, outlen, "%s:%.*s/libmpiguard-check-exit.so", js->library,
             (int)(slash - js->library), js->library);
    const char *exit_object = out + strlen(js->library) + 1;
    if (access(exit_object, R_OK) != 0) {
        mg_log_error("check's _exit library is missing (looked for %s)", exit_object);
        return MG_EXIT_UNAVAILABLE;
    }
    return 0;
}

/* Whether an Open MPI job started through srun needs Slurm's ring fence: under mpi/pmix the default
 * barrier fence (a tree) ended on each node by itself (Slurm 22.05, PMIx 4.2), so MPI_Init's
 * closing barrier held no rank back. A rank whose node learnt first that the modex fence had ended
 * then sent its first message to a rank still waiting for that news, before Open MPI 4.1's ob1 had
 * set its receive callbacks, and btl/tcp called a NULL one: SIGSEGV at address 0 inside MPI_Init.
 * Any delay in the news widens that window; the agents' load on the nodes did (issue 31). The ring
 * fence waits for every node. A value the user gives the ranks stays. */
static int srun_needs_ring_fence(const job_session *js, char **command, int ncommand)
{
    char value[64];
    return js->launcher.kind == LAUNCHER_SRUN && js->flavor == MG_MPI_FLAVOR_OPENMPI &&
           launcher_user_value(&js->launcher, command, ncommand, MG_ENV_SLURM_PMIX_FENCE, value,
                               sizeof value) == 0;
}

int job_session_launch(job_session *js, const char *modules, char **command, int ncommand,
                       int verbose)
{
    char ours[2 * sizeof js->library], preload[8192];
    int rc = mpiguard_preload(js, modules, ours, sizeof ours);
    if (!rc)
        rc = preload_with_users(js, ours, command, ncommand, preload, sizeof preload);
    if (rc)
        return rc;
    /* The ranks on this host leave their state segment to job_session_end, which removes them:
     * a rank that ends before a discovery scan has opened its segment is still read then. */
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    launcher_env_var vars[5 + JOB_SESSION_EXTRA_ENV_MAX] = {
        {MG_ENV_PRELOAD, preload},
        {MG_ENV_JOB_TOKEN, js->token},
        {MG_ENV_MODULES, modules},
        {MG_ENV_STATE_KEEP_HOST, host},
    };
    memcpy(vars + 4, extra_env, (size_t)extra_env_count * sizeof *extra_env);
    int nvars = 4 + extra_env_count;
    extra_env_count = 0; /* the settings were for this job (demo runs several in one process) */
    if (srun_needs_ring_fence(js, command, ncommand))
        vars[nvars++] = (launcher_env_var){MG_ENV_SLURM_PMIX_FENCE, "ring"};
    char **job_argv = launcher_build_argv(&js->launcher, command, ncommand, vars, nvars);
    if (!job_argv) {
        mg_log_error("cannot build the launcher command (a value holds a character %s cannot pass)",
                     launcher_kind_name(js->launcher.kind));
        return MG_EXIT_SOFTWARE;
    }
    if (verbose) {
        fprintf(stderr, "mpiguard: %s: starting (%s, %s):", js->tool,
                launcher_kind_name(js->launcher.kind), mg_mpi_flavor_name(js->flavor));
        for (char **a = job_argv; *a; a++)
            fprintf(stderr, " %s", *a);
        fputc('\n', stderr);
    }
    /* srun (22.05) gives the ranks its own environment's value of a variable that its
     * --export=ALL,NAME=VALUE also sets: `LD_PRELOAD=a srun --export=ALL,LD_PRELOAD=m:a` preloads
     * a alone. What mpiguard sets reaches srun only in --export (the merged LD_PRELOAD holds the
     * user's own); the rest of the environment passes as before. */
    if (js->launcher.kind == LAUNCHER_SRUN)
        for (int v = 0; v < nvars; v++)
            unsetenv(vars[v].name);
    job_install_signal_handlers();
    char err[1024];
    rc = job_start(job_argv, js->token, &js->process, err, sizeof err);
    launcher_free_argv(job_argv);
    if (rc) {
        mg_log_error("%s", err);
        return rc == MG_ERROR_ENOENT ? MG_EXIT_UNAVAILABLE : MG_EXIT_SOFTWARE;
    }
    return 0;
}

/* Notes rank p as found; the first rank that says the world's size sizes the table. Returns 0, or
 * MG_ERROR_ENOMEM when the table could not be made. */
static int note_rank(job_session *js, const rank_scan_proc *p)
{
    if (js->nranks == 0 && p->size > 0) {
        job_session_rank *ranks = calloc((size_t)p->size, sizeof *ranks);
        if (!ranks)
            return MG_ERROR_ENOMEM;
        js->ranks = ranks;
        js->nranks = p->size;
    }
    if (p->rank < 0 || p->rank >= js->nranks || js->ranks[p->rank].pid)
        return 0;
    js->ranks[p->rank].pid = p->pid;
    js->found++;
    mg_log_info("%s: rank %d is pid %d", js->tool, p->rank, p->pid);
    return 0;
}

int job_session_note_rank(job_session *js, int rank, int size, int pid)
{
    rank_scan_proc p = {.pid = pid, .rank = rank, .size = size};
    return note_rank(js, &p);
}

/* A scan reads two files of every process on the machine: at a tool's polling rate (check drains
 * every 20 ms) it would take a good part of a core from ranks that are starting up. */
static const double discovery_interval = 0.1;

/* Opens the state segment of every rank found that has none open yet. */
static void open_states(job_session *js)
{
    for (int r = 0; r < js->nranks && js->token[0]; r++)
        if (js->ranks[r].pid && !js->ranks[r].state)
            rank_state_reader_open(js->token, r, &js->ranks[r].state);
}

void job_session_discover(job_session *js)
{
    double now = mg_clock_seconds();
    if (now - js->discovered_at < discovery_interval)
        return;
    js->discovered_at = now;
    if (js->nranks > 0 && js->found == js->nranks) {
        open_states(js);
        return;
    }
    rank_scan_proc *procs;
    size_t n;
    if (rank_scan("/proc", &js->selector, &procs, &n) != MG_ERROR_OK)
        return;
    for (size_t i = 0; i < n && note_rank(js, &procs[i]) == 0; i++)
        ;
    free(procs);
    open_states(js);
}

/* An attached job's token and program come from its first rank's /proc entries. */
static void learn_from_first_rank(job_session *js)
{
    rank_scan_proc *procs;
    size_t n;
    if (rank_scan("/proc", &js->selector, &procs, &n) != MG_ERROR_OK)
        return;
    if (n > 0) {
        rank_scan_environ_get("/proc", procs[0].pid, MG_ENV_JOB_TOKEN, js->token, sizeof js->token);
        char exe[64];
        snprintf(exe, sizeof exe, "/proc/%d/exe", procs[0].pid);
        ssize_t len = readlink(exe, js->launcher.app_path, sizeof js->launcher.app_path - 1);
        js->launcher.app_path[len > 0 ? len : 0] = '\0';
    }
    free(procs);
}

int job_session_attach(job_session *js, const char *tool, const char *target, char *launcher_name)
{
    memset(js, 0, sizeof *js);
    js->tool = tool;
    int is_pid = 0;
    long number = 0;
    const char *id = NULL;
    int rc = attach_target_resolve(target, &is_pid, &number, &id);
    if (rc)
        return rc;
    js->attached = 1;
    if (is_pid)
        js->selector.ancestor_pid = (int)number;
    else
        js->selector.slurm_job_id = id;
    char err[256];
    if (job_attach(is_pid ? (int)number : 0, is_pid ? NULL : id, &js->process, err, sizeof err)) {
        mg_log_error("%s", err);
        return MG_EXIT_NOINPUT;
    }
    learn_from_first_rank(js);
    if (is_pid)
        snprintf(launcher_name, 64, "/proc/%ld", number);
    else
        snprintf(launcher_name, 64, "slurm");
    job_install_signal_handlers();
    return 0;
}

int job_session_wait(job_session *js, int timeout_ms)
{
    int finished = 0;
    job_wait(js->process, timeout_ms, &finished);
    return finished;
}

static int all_discovered(const job_session *js, int with_states)
{
    if (js->nranks == 0 || js->found < js->nranks)
        return 0;
    for (int r = 0; with_states && r < js->nranks; r++)
        if (!js->ranks[r].state)
            return 0;
    return 1;
}

/* A segment "<rank>" of the job's token: the rank it names, found by what it published. */
static int note_rank_by_state(const char *suffix, void *ctx)
{
    job_session *js = ctx;
    char *end;
    long rank = strtol(suffix, &end, 10);
    const rank_state *state;
    if (*end || end == suffix || rank < 0 || rank > INT_MAX ||
        rank_state_reader_open(js->token, (int)rank, &state) != MG_ERROR_OK)
        return 0;
    rank_scan_proc p = {.pid = state->pid, .rank = state->rank, .size = state->size};
    if (p.rank != rank || note_rank(js, &p) != 0 || p.rank >= js->nranks || js->ranks[p.rank].state)
        rank_state_reader_close(state);
    else
        js->ranks[p.rank].state = state;
    return 0;
}

void job_session_wait_end(job_session *js, int with_states)
{
    while (!job_session_wait(js, all_discovered(js, with_states) ? 60000 : 200))
        job_session_discover(js);
    job_session_discover(js);
    /* The segments of this host's ranks stay until job_session_end removes them
     * (MPIGUARD_STATE_KEEP_HOST): a rank that ended before a scan saw it, or before a scan opened
     * its segment, is found and read from them now. */
    if (js->token[0] && !all_discovered(js, 1)) {
        char prefix[96];
        snprintf(prefix, sizeof prefix, "mpiguard-%s-", js->token);
        mg_shm_each_prefixed(prefix, note_rank_by_state, js);
    }
    open_states(js);
}

void job_session_end(job_session *js)
{
    for (int r = 0; r < js->nranks; r++)
        rank_state_reader_close(js->ranks[r].state);
    if (js->token[0] && !js->attached)
        rank_state_reader_remove_all(js->token);
    free(js->ranks);
    job_destroy(js->process);
}
