/* One watch of a job on the process side (hang_watcher.h). */
#include "hang_watcher.h"

#include "hang_remote.h"
#include "mpi_function_ids.h"
#include "rank_scan.h"
#include "rank_state.h"

#include "mg_clock.h"
#include "mg_env.h"
#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Seconds an attached job gets to show its ranks; a job mpiguard started has until it ends. */
#define ATTACH_DISCOVERY_SECONDS 10.0

/* How long the job's end waits for the exit events of ranks already gone (dead_rank_at_end). */
#define END_EXITS_WAIT_S 1.0

/* Listens for the ranks' exits (proc_exits.h); NULL, said once with -v, where the kernel refuses.
 */
static proc_exits *open_exits(const job_session *js)
{
    proc_exits *exits = NULL;
    int rc = proc_exits_open(js->nranks, &exits);
    if (rc != MG_ERROR_OK)
        mg_log_info(
            "hang: the ranks' exit statuses will not be known (%s): a rank that dies is named "
            "by its published state alone",
            mg_error_string(rc));
    return exits;
}

/* Returns 0 once every rank is known, 1 if the job ended first, or MG_EXIT_NOINPUT for an attached
 * process that has no MPI ranks. With exits, listens for the ranks' exits from the moment the job's
 * size is known: a rank may die seconds after MPI_Init, before the last rank is found. */
static int wait_for_ranks(job_session *js, proc_exits **exits)
{
    double deadline = mg_clock_seconds() + ATTACH_DISCOVERY_SECONDS;
    bool listening = !exits;
    for (;;) {
        if (!listening && js->nranks > 0) {
            *exits = open_exits(js);
            listening = true;
        }
        if (js->nranks > 0 && js->found == js->nranks)
            return 0;
        if (job_session_wait(js, 100))
            return 1;
        job_session_discover(js);
        if (js->attached && js->nranks == 0 && mg_clock_seconds() > deadline) {
            mg_log_error("hang: no MPI rank found in the job attached to (%.0f s)",
                         ATTACH_DISCOVERY_SECONDS);
            return MG_EXIT_NOINPUT;
        }
    }
}

/* The session's ranks as the agents own them: a rank no agent owns is not found. 0, or
 * MG_EXIT_SOFTWARE (said). */
static int take_agents_ranks(job_session *js, const hang_remote *remote)
{
    if (js->nranks == 0) {
        int world = hang_remote_world(remote);
        if (!(js->ranks = calloc((size_t)world, sizeof *js->ranks))) {
            mg_log_error("hang: %s", mg_error_string(MG_ERROR_ENOMEM));
            return MG_EXIT_SOFTWARE;
        }
        js->nranks = world;
    }
    js->found = 0;
    for (int r = 0; r < js->nranks; r++) {
        const char *node;
        js->ranks[r].pid = hang_remote_pid(remote, r, &node);
        snprintf(js->ranks[r].host, sizeof js->ranks[r].host, "%s", node);
        js->found += js->ranks[r].pid != 0;
    }
    return 0;
}

/* Finds the ranks and starts the agents. 0, 1 when the job ended first, or the discovery's or
 * the agents' error. */
static int find_ranks(hang_watcher *w, hang_watcher_seen *seen)
{
    const hang_watcher_params *p = w->p;
    /* Agents on other nodes find the ranks; local agents need the world size to share it out.
     * A rank's exit is seen here unless agents read the ranks. */
    int waited = p->agent_launcher ? 0 : wait_for_ranks(w->job, p->agents ? NULL : &w->exits);
    if (waited) {
        seen->ended_in_discovery = waited == 1;
        return waited;
    }
    if (!p->agents && !p->agent_launcher)
        return 0;
    hang_remote_options ro = {.token = w->job->token,
                              .world = w->job->nranks,
                              .local_agents = (int)p->agents,
                              .agent_launcher = p->agent_launcher,
                              .sampler = p->kind == RANK_PROBE_PTRACE ? "ptrace" : "shm",
                              .connect_timeout = 60,
                              .fanout = (int)p->agent_fanout};
    int rc = hang_remote_start(&ro, &w->remote);
    return rc ? rc : take_agents_ranks(w->job, w->remote);
}

/* The model and the watch engine over it. 0, MG_EXIT_USAGE or MG_EXIT_SOFTWARE (said). */
static int create_engine(hang_watcher *w)
{
    static bool polling[MG_FN_COUNT];
    for (unsigned f = 0; f < MG_FN_COUNT; f++)
        polling[f] = mpi_function_ids_class_of(f) == MG_MPI_FUNCTION_IDS_CLASS_POLL;
    uint64_t seed = w->p->seed >= 0 ? (uint64_t)w->p->seed
                                    : (uint64_t)time(NULL) ^ (uint64_t)getpid();
    if (hang_model_create(&w->p->model, (size_t)w->job->nranks, seed, &w->model) != 0) {
        mg_log_error("hang: invalid model parameters");
        return MG_EXIT_USAGE;
    }
    struct hang_watch_params wp;
    hang_watch_params_default(&wp);
    wp.nscans = (size_t)w->p->verify_scans;
    wp.scan_gap = w->p->verify_gap;
    wp.polling = polling;
    wp.npolling = MG_FN_COUNT;
    wp.start_unseen = w->job->attached;
    struct hang_watch_detector detector = hang_watch_detector_model(w->model);
    w->readings = calloc((size_t)w->job->nranks, sizeof *w->readings);
    if (!w->readings ||
        hang_watch_create(&wp, &detector, (size_t)w->job->nranks, &w->engine) != MG_ERROR_OK) {
        mg_log_error("hang: out of memory");
        return MG_EXIT_SOFTWARE;
    }
    return 0;
}

/* The probes and the observer of blind ranks. */
static void open_probes(hang_watcher *w)
{
    job_session *js = w->job;
    w->probes = (hang_probes){.job = js,
                              .kind = w->p->kind,
                              .remote = w->remote,
                              .probe = calloc((size_t)js->nranks, sizeof(rank_probe *)),
                              .warned = calloc((size_t)js->nranks, 1),
                              .rank_cost = calloc((size_t)js->nranks, sizeof(hang_probes_cost))};
    /* judged here unless agents read the ranks on other nodes: with shm by what the ranks
     * published (not known of an attached job), with ptrace by what their processes map */
    w->by_state = w->probes.kind == RANK_PROBE_SHM && !w->p->agent_launcher && !js->attached;
    int by_stack = w->probes.kind == RANK_PROBE_PTRACE && !w->p->agent_launcher;
    if (w->by_state || by_stack) {
        w->observer = observe_ranks_create(js, w->by_state ? observe_ranks_by_state : NULL, js);
        if (!w->observer)
            mg_log_warn("hang: out of memory: a rank the shm sampler cannot see will not be named");
    }
}

int hang_watcher_open(hang_watcher *w, job_session *job, const hang_watcher_params *p,
                      const hang_watcher_hooks *hooks, hang_watcher_seen *seen)
{
    *w = (hang_watcher){.job = job, .p = p, .hooks = *hooks};
    hang_dead_watch_init(&w->dead);
    int status = find_ranks(w, seen);
    if (status == 0)
        status = create_engine(w);
    if (status == 0) {
        open_probes(w);
        w->start = mg_clock_seconds();
    }
    return status;
}

/* Reads what the watch's step asks for into readings; an exited rank's place in the kernel's order
 * of the exits' starts from exits (may be NULL), by which the engine tells which of the ranks gone
 * in one scan died first. */
static void take_readings(hang_probes *probes, const proc_exits *exits,
                          const struct hang_watch_step *step, struct hang_watch_reading *readings)
{
    const int *ranks = step->action == HANG_WATCH_SAMPLE ? step->ranks : NULL;
    int how = step->gap_only ? RANK_PROBE_GAP_ONLY : step->with_cpu ? RANK_PROBE_CPU_TIME : 0;
    /* through agents, one frame each way per agent; without memory for it, one per rank */
    if (probes->remote)
        (void)hang_remote_prefetch(probes->remote, ranks, step->count, how);
    for (size_t i = 0; i < step->count; i++) {
        int r = ranks ? ranks[i] : (int)i;
        hang_probes_read_for_watch(probes, r, how, &readings[i]);
        if (!readings[i].exited || !proc_exits_order(exits, r, &readings[i].exit_order))
            readings[i].exit_order = 0;
    }
}

/* The dead rank (hang_dead_first) after taking the exits announced so far; *all_seen as there. */
static int poll_dead_rank(const job_session *js, proc_exits *exits, bool *all_seen)
{
    for (int r = 0; exits && r < js->nranks; r++)
        proc_exits_set_pid(exits, r, js->ranks[r].pid);
    if (proc_exits_poll(exits) == MG_ERROR_EFULL)
        mg_log_info(
            "hang: the kernel dropped process events (a busy machine): a rank's exit status "
            "may be missing");
    struct hang_dead_rank *ranks = calloc((size_t)js->nranks, sizeof *ranks);
    if (!ranks)
        return -1;
    for (int r = 0; r < js->nranks; r++) {
        struct hang_dead_rank *x = &ranks[r];
        int pid = js->ranks[r].pid, wait_status = 0;
        const rank_state *state = js->ranks[r].state;
        const char *fn = mg_rank_state_function(state);
        x->found = pid != 0;
        x->exit_seen = proc_exits_status(exits, r, &wait_status, &x->when);
        x->signal = x->exit_seen && WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : 0;
        x->ordered = proc_exits_order(exits, r, &x->order);
        /* /proc only where no exit is announced: a read per rank per step otherwise */
        x->gone = x->found && !exits && mg_process_state_gone(rank_scan_process_state(pid));
        x->published = state != NULL;
        x->finalized = state && atomic_load_explicit(&state->finalized, memory_order_relaxed);
        x->aborting = fn && strcmp(fn, "MPI_Abort") == 0;
        x->in_mpi = state && atomic_load_explicit(&state->threads_in_mpi, memory_order_relaxed);
    }
    int dead = hang_dead_first(ranks, (size_t)js->nranks, all_seen);
    free(ranks);
    return dead;
}

/* The rank that died first, once the launcher has ended the job. A rank's exit event comes at the
 * very end of its exit, after its parent may already have reaped it and the launcher killed the
 * others: on a loaded machine the rank that died first can be announced last. So the events of
 * every rank are awaited, for at most END_EXITS_WAIT_S. */
static int dead_rank_at_end(const job_session *js, proc_exits *exits)
{
    double deadline = mg_clock_seconds() + END_EXITS_WAIT_S;
    for (;;) {
        bool all_seen;
        int dead = poll_dead_rank(js, exits, &all_seen);
        if (!exits || all_seen || mg_clock_seconds() >= deadline)
            return dead;
        usleep(20000);
    }
}

/* Whether a rank has been dead long enough while the job runs on (hang_dead_watch_feed): then
 * reported and acted on. */
static bool dead_rank_holds_job(hang_watcher *w)
{
    double now = mg_clock_seconds() - w->start;
    int dead = w->remote ? -1 : poll_dead_rank(w->job, w->exits, NULL);
    if (!hang_dead_watch_feed(&w->dead, dead, now))
        return false;
    w->hooks.dead_rank(w->hooks.ctx, dead, false, now);
    int faulty[1] = {dead};
    hang_watcher_act(w->job, w->p, faulty, 1);
    return true;
}

/* Hands every rank the shm sampler cannot see to ptrace, and says so. Returns 0 or MG_ERROR_ENOMEM.
 */
static int switch_blind_ranks(hang_probes *probes, const observe_ranks *observer)
{
    for (int r = 0; r < probes->job->nranks; r++) {
        rank_observe_cause cause = observe_ranks_cause(observer, r);
        if (cause == RANK_OBSERVE_PENDING || cause == RANK_OBSERVE_OK ||
            (probes->by_ptrace && probes->by_ptrace[r]))
            continue;
        if (hang_probes_use_ptrace(probes, r) != MG_ERROR_OK)
            return MG_ERROR_ENOMEM;
        fprintf(stderr,
                "mpiguard: hang: rank %d is sampled by ptrace from now on (the shm sampler "
                "cannot see it)\n",
                r);
    }
    return MG_ERROR_OK;
}

/* Before a sample: hands the ranks the shm sampler cannot see to ptrace. False when out of
 * memory (said). */
static bool observe(hang_watcher *w)
{
    /* maps the states the observer reads, and under ptrace the waits (hang_probes_wait) */
    if (w->by_state || (w->probes.kind == RANK_PROBE_PTRACE && !w->remote && !w->job->attached))
        job_session_discover(w->job);
    if (observe_ranks_update(w->observer, 0) && w->by_state && !w->remote &&
        switch_blind_ranks(&w->probes, w->observer)) {
        mg_log_error("hang: out of memory");
        return false;
    }
    return true;
}

int hang_watcher_run(hang_watcher *w, int *rc)
{
    struct hang_watch_step step;
    *rc = hang_watch_begin(w->engine, 0, &step);
    while (*rc == MG_ERROR_OK) {
        double wait = step.at - (mg_clock_seconds() - w->start);
        if (job_session_wait(w->job, wait > 0 ? (int)(wait * 1000) : 0))
            return 0;
        if (dead_rank_holds_job(w))
            return MG_EXIT_HANG;
        if (step.action == HANG_WATCH_SAMPLE && w->observer && !observe(w))
            return 0;
        take_readings(&w->probes, w->exits, &step, w->readings);
        if (w->remote && hang_remote_all_lost(w->remote)) {
            /* nothing is read any more: the job would be waited for without a bound, a hang of
             * it never seen (issue 31: all agents go when Hydra ends the agents' job for one) */
            mg_log_warn("hang: no rank is observed any more: every agent stopped answering; %s",
                        w->p->action == HANG_WATCHER_ACTION_KILL ? "stopping the job"
                                                                 : "the job runs on unwatched");
            if (w->p->action == HANG_WATCHER_ACTION_KILL)
                job_stop(w->job->process, JOB_STOP_GRACE_SECONDS);
            return 0;
        }
        double now = mg_clock_seconds() - w->start;
        if ((*rc = hang_watch_feed(w->engine, w->readings, now, &step)) != MG_ERROR_OK)
            break;
        w->hooks.step(w->hooks.ctx, &step, now);
        if (step.action == HANG_WATCH_VERDICT) {
            w->hooks.verdict(w->hooks.ctx, &step, now);
            hang_watcher_act(w->job, w->p, hang_watch_faulty(w->engine), step.result.nfaulty);
            return MG_EXIT_HANG;
        }
    }
    return 0;
}

/* Counts each rank's observation with its sampler into seen and sampler[r]. */
static void count_observation(hang_watcher *w, hang_watcher_seen *seen, const char **sampler)
{
    hang_probes *probes = &w->probes;
    for (int r = 0; r < w->job->nranks; r++) {
        /* not judged through agents elsewhere: counted as the sampler reads them */
        rank_observe_cause cause = w->observer ? observe_ranks_cause(w->observer, r)
                                               : RANK_OBSERVE_OK;
        if (probes->remote && hang_remote_lost(probes->remote, r)) {
            mg_log_warn("hang: rank %d is not observed: its node's agent stopped answering", r);
            sampler[r] = NULL;
            seen->lost++;
            continue;
        }
        int ptrace = probes->kind == RANK_PROBE_PTRACE ? cause == RANK_OBSERVE_OK
                                                       : probes->by_ptrace && probes->by_ptrace[r];
        int shm = !ptrace && cause == RANK_OBSERVE_OK;
        sampler[r] = ptrace ? "ptrace" : shm ? "shm" : NULL;
        seen->by_ptrace += ptrace;
        seen->by_shm += shm;
    }
}

int hang_watcher_finish(hang_watcher *w, int status, int rc, hang_watcher_seen *seen,
                        const char **sampler)
{
    job_session *js = w->job;
    if (!status && rc == MG_ERROR_OK && !w->remote && !job_interrupting_signal(js->process) &&
        (seen->dead_rank = dead_rank_at_end(js, w->exits)) >= 0) {
        w->hooks.dead_rank(w->hooks.ctx, seen->dead_rank, true, mg_clock_seconds() - w->start);
        js->ended_itself = 1;
    }
    if (rc != MG_ERROR_OK) {
        /* never reported clean: the job runs on unwatched to its end, and the status says so */
        mg_log_error("hang: the watch stopped: %s; the job is no longer watched",
                     mg_error_string(rc));
        status = MG_EXIT_SOFTWARE;
    }
    if (w->observer)
        observe_ranks_update(w->observer, 1);
    count_observation(w, seen, sampler);
    return status;
}

void hang_watcher_free(hang_watcher *w)
{
    proc_exits_close(w->exits);
    observe_ranks_destroy(w->observer);
    if (w->probes.job)
        hang_probes_close(&w->probes);
    /* the agents' copies of published waits die with the agents' link: not segments to unmap */
    for (int r = 0; r < w->job->nranks; r++)
        if (hang_remote_forwarded(w->remote, w->job->ranks[r].state))
            w->job->ranks[r].state = NULL;
    hang_remote_stop(w->remote);
    free(w->readings);
    hang_watch_destroy(w->engine);
    hang_model_destroy(w->model);
}

int hang_watcher_act(job_session *job, const hang_watcher_params *p, const int *faulty,
                     size_t nfaulty)
{
    switch (p->action) {
    case HANG_WATCHER_ACTION_KILL:
        mg_log_warn("hang: stopping the job");
        job_stop(job->process, JOB_STOP_GRACE_SECONDS);
        return 1;
    case HANG_WATCHER_ACTION_SIGNAL:
        for (int r = 0; r < job->nranks; r++)
            if (job->ranks[r].pid)
                kill(job->ranks[r].pid, p->sig);
        return 0;
    case HANG_WATCHER_ACTION_EXEC: {
        char ranks[64] = "";
        for (size_t i = 0; i < nfaulty && strlen(ranks) < sizeof ranks - 12; i++)
            snprintf(ranks + strlen(ranks), sizeof ranks - strlen(ranks), "%s%d", i ? "," : "",
                     faulty[i]);
        char pid[16];
        snprintf(pid, sizeof pid, "%d", job_launcher_pid(job->process));
        setenv(MG_ENV_FAULTY_RANKS, ranks, 1);
        setenv(MG_ENV_LAUNCHER_PID, pid, 1);
        if (p->report_path)
            setenv(MG_ENV_REPORT, p->report_path, 1);
        char *argv[] = {"/bin/sh", "-c", (char *)p->cmd, NULL};
        job_handle *hook;
        char err[256];
        if (job_start(argv, NULL, &hook, err, sizeof err) == 0) {
            int done = 0;
            while (!done)
                job_wait(hook, 1000, &done);
            job_destroy(hook);
        } else {
            mg_log_error("hang: --on-hang exec: %s", err);
        }
        return 0;
    }
    case HANG_WATCHER_ACTION_REPORT:
        return 0;
    }
    return 0;
}
