/* `mpiguard hang`: runs (or attaches to) a job and watches it with ParaStack's model; on a hang it
 * verifies, diagnoses, reports and acts (docs/design/hang.md, docs/hang.md). */
#include "cli.h"
#include "hang_diagnosis.h"
#include "hang_model.h"
#include "hang_remote.h"
#include "hang_watch.h"
#include "observe_ranks.h"

#include "mg_error.h"
#include "mg_exit.h"
#include "mg_log.h"
#include "mg_clock.h"
#include "mg_env.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static const char *const sampler_choices[] = {"auto", "shm", "ptrace", NULL};
enum { SAMPLER_AUTO, SAMPLER_SHM, SAMPLER_PTRACE };

typedef struct hang_options {
    double alpha, interval, max_interval, verify_gap;
    long set_size, verify_scans, seed, agents, agent_fanout;
    int sampler, progress;
    const char *on_hang, *attach, *trace, *agent_launcher;
} hang_options;

typedef enum hang_action { ACTION_KILL, ACTION_REPORT, ACTION_SIGNAL, ACTION_EXEC } hang_action;

/* "kill", "report", "signal:SIG" (name with or without SIG, or number), "exec:CMD". */
static int parse_action(const char *text, hang_action *action, int *sig, const char **cmd)
{
    if (strcmp(text, "kill") == 0)
        *action = ACTION_KILL;
    else if (strcmp(text, "report") == 0)
        *action = ACTION_REPORT;
    else if (strncmp(text, "exec:", 5) == 0 && text[5]) {
        *action = ACTION_EXEC;
        *cmd = text + 5;
    } else if (strncmp(text, "signal:", 7) == 0 && text[7]) {
        const char *name = text + 7;
        *action = ACTION_SIGNAL;
        *sig = atoi(name);
        if (strncmp(name, "SIG", 3) == 0)
            name += 3;
        for (int k = 1; k < NSIG && *sig <= 0; k++) {
            const char *abbrev = sigabbrev_np(k);
            if (abbrev && strcmp(abbrev, name) == 0)
                *sig = k;
        }
        return *sig > 0 && *sig < NSIG ? 0 : -1;
    } else
        return -1;
    return 0;
}

static void print_progress(const struct hang_model_state *st, double elapsed)
{
    if (!st->built)
        fprintf(stderr, "mpiguard: hang: [%6.1f s] building the model: %zu samples, I = %.2f s%s\n",
                elapsed, st->samples, st->interval, st->random ? "" : " (testing randomness)");
    else
        fprintf(stderr,
                "mpiguard: hang: [%6.1f s] watching: I = %.2f s, p = %.3f, q = %.3f%s, K = %u, "
                "suspicions %u/%u, set %zu\n",
                elapsed, st->interval, st->p_hat, st->q, st->exact ? " (exact bound)" : "",
                st->needed, st->suspicions, st->needed, st->set_index);
}

static json_object *model_json(const struct hang_model *model, const hang_options *o,
                               double built_at)
{
    struct hang_model_state st;
    hang_model_state(model, &st);
    json_object *m = json_object_new_object();
    json_object_object_add(m, "alpha", json_object_new_double(o->alpha));
    json_object_object_add(m, "built_at_s", json_object_new_double(built_at));
    json_object_object_add(m, "interval_s", json_object_new_double(st.interval));
    json_object_object_add(m, "samples", json_object_new_int64((int64_t)st.samples));
    json_object_object_add(m, "observations", json_object_new_int64((int64_t)st.observations));
    json_object_object_add(m, "p_hat", json_object_new_double(st.p_hat));
    json_object_object_add(m, "e", json_object_new_double(st.e));
    json_object_object_add(m, "exact_bound", json_object_new_boolean(st.exact));
    json_object_object_add(m, "q", json_object_new_double(st.q));
    json_object_object_add(m, "suspicions_needed", json_object_new_int((int)st.needed));
    json_object_object_add(m, "set_size", json_object_new_int64((int64_t)st.set_size));
    json_object_object_add(m, "reduced_sets", json_object_new_boolean(st.reduced));
    return m;
}

/* What watching cost, in the report and with -v: the time ptrace samples held ranks stopped (each
 * stop delays a bulk-synchronous job by at most its length, so their sum over the watched time
 * bounds the slowdown; between the time every thread was frozen and the time from the first seize)
 * and mpiguard's own CPU time (taken from the job when they share cores). Wall-time ratios cannot
 * resolve sub-percent costs on a loaded machine; these are measured directly
 * (docs/hang-measurements.md "Overhead"). */
static void record_cost(cli_session *s, const hang_probes *p, double watched)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double cpu = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
                 (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
    double span = watched > 0 ? watched : 1;
    double held = 1e-9 * (double)p->held_ns, frozen = 1e-9 * (double)p->frozen_ns;
    json_object *c = json_object_new_object();
    json_object_object_add(c, "watched_s", json_object_new_double(watched));
    json_object_object_add(c, "rank_readings", json_object_new_int64((int64_t)p->readings));
    if (!p->remote) {
        json_object_object_add(c, "frozen_s", json_object_new_double(frozen));
        json_object_object_add(c, "held_s", json_object_new_double(held));
        json_object_object_add(c, "frozen_fraction", json_object_new_double(frozen / span));
        json_object_object_add(c, "held_fraction", json_object_new_double(held / span));
    }
    json_object_object_add(c, "monitor_cpu_s", json_object_new_double(cpu));
    json_object_object_add(c, "monitor_cpu_fraction", json_object_new_double(cpu / span));
    json_object_object_add(mg_report_tool_data(s->report), "monitor_cost", c);
    char stops[128] = "";
    if (!p->remote && p->held_ns > 0)
        snprintf(stops, sizeof stops, "; ranks stopped %.3f-%.3f s (%.3f-%.3f%% of the time)",
                 frozen, held, 100 * frozen / span, 100 * held / span);
    mg_info("hang: monitoring cost: %llu rank readings in %.1f s%s; mpiguard used %.2f%% of a core",
            (unsigned long long)p->readings, watched, stops, 100 * cpu / span);
}

/* Runs the action; returns 1 when the job was stopped by it. */
static int act(cli_session *s, hang_action action, int sig, const char *cmd, const int *faulty,
               size_t nfaulty)
{
    switch (action) {
    case ACTION_KILL:
        mg_warn("hang: stopping the job");
        mg_job_stop(s->job.process);
        return 1;
    case ACTION_SIGNAL:
        for (int r = 0; r < s->job.nranks; r++)
            if (s->job.ranks[r].pid)
                kill(s->job.ranks[r].pid, sig);
        return 0;
    case ACTION_EXEC: {
        char ranks[64] = "";
        for (size_t i = 0; i < nfaulty && strlen(ranks) < sizeof ranks - 12; i++)
            snprintf(ranks + strlen(ranks), sizeof ranks - strlen(ranks), "%s%d", i ? "," : "",
                     faulty[i]);
        char pid[16];
        snprintf(pid, sizeof pid, "%d", mg_job_launcher_pid(s->job.process));
        setenv(MG_ENV_FAULTY_RANKS, ranks, 1);
        setenv(MG_ENV_LAUNCHER_PID, pid, 1);
        if (cli_opts.report_path)
            setenv(MG_ENV_REPORT, cli_opts.report_path, 1);
        char *argv[] = {"/bin/sh", "-c", (char *)cmd, NULL};
        mg_job *hook;
        char err[256];
        if (mg_job_start(argv, NULL, &hook, err, sizeof err) == 0) {
            int done = 0;
            while (!done)
                mg_job_wait(hook, 1000, &done);
            mg_job_destroy(hook);
        } else {
            mg_error("hang: --on-hang exec: %s", err);
        }
        return 0;
    }
    case ACTION_REPORT:
        return 0;
    }
    return 0;
}

/* Seconds an attached job gets to show its ranks; a job mpiguard started has until it ends. */
#define ATTACH_DISCOVERY_SECONDS 10.0

/* Listens for the ranks' exits (proc_exits.h); NULL, said once with -v, where the kernel refuses.
 */
static proc_exits *open_exits(const cli_session *s)
{
    proc_exits *exits = NULL;
    int rc = proc_exits_open(s->job.nranks, &exits);
    if (rc != MG_OK)
        mg_info("hang: the ranks' exit statuses will not be known (%s): a rank that dies is named "
                "by its published state alone",
                mg_strerror(rc));
    return exits;
}

/* Returns 0 once every rank is known, 1 if the job ended first, or MG_EXIT_NOINPUT for an attached
 * process that has no MPI ranks. With exits, listens for the ranks' exits from the moment the job's
 * size is known: a rank may die seconds after MPI_Init, before the last rank is found. */
static int wait_for_ranks(cli_session *s, proc_exits **exits)
{
    double deadline = mg_clock_seconds() + ATTACH_DISCOVERY_SECONDS;
    bool listening = !exits;
    for (;;) {
        if (!listening && s->job.nranks > 0) {
            *exits = open_exits(s);
            listening = true;
        }
        if (s->job.nranks > 0 && s->job.found == s->job.nranks)
            return 0;
        if (job_session_wait(&s->job, 100))
            return 1;
        job_session_discover(&s->job);
        if (s->job.attached && s->job.nranks == 0 && mg_clock_seconds() > deadline) {
            mg_error("hang: no MPI rank found in the job attached to (%.0f s)",
                     ATTACH_DISCOVERY_SECONDS);
            return MG_EXIT_NOINPUT;
        }
    }
}

/* How many ranks the watch read through each sampler, for the closing line. */
typedef struct hang_seen {
    int by_shm, by_ptrace;
    int lost;      /* ranks whose node's agent stopped answering: not observed to the end */
    int dead_rank; /* a rank that died while the job ran on to its launcher's end, or -1 */
    bool ended_in_discovery; /* the job ended before every rank was found */
} hang_seen;

/* Hands every rank the shm sampler cannot see to ptrace, and says so. Returns 0 or MG_ENOMEM. */
static int switch_blind_ranks(hang_probes *probes, const observe_ranks *observer)
{
    for (int r = 0; r < probes->job->nranks; r++) {
        mg_observe_cause cause = observe_ranks_cause(observer, r);
        if (cause == MG_OBSERVE_PENDING || cause == MG_OBSERVE_OK ||
            (probes->by_ptrace && probes->by_ptrace[r]))
            continue;
        if (hang_probes_use_ptrace(probes, r) != MG_OK)
            return MG_ENOMEM;
        fprintf(stderr,
                "mpiguard: hang: rank %d is sampled by ptrace from now on (the shm sampler "
                "cannot see it)\n",
                r);
    }
    return MG_OK;
}

/* Records each rank's observation with its sampler and counts them into *seen. */
static void record_observation(cli_session *s, hang_probes *probes, observe_ranks *observer,
                               hang_seen *seen)
{
    int n = probes->job->nranks;
    const char *sampler[n > 0 ? n : 1];
    for (int r = 0; r < n; r++) {
        /* not judged through agents elsewhere: counted as the sampler reads them */
        mg_observe_cause cause = observer ? observe_ranks_cause(observer, r) : MG_OBSERVE_OK;
        if (probes->remote && hang_remote_lost(probes->remote, r)) {
            mg_warn("hang: rank %d is not observed: its node's agent stopped answering", r);
            sampler[r] = NULL;
            seen->lost++;
            continue;
        }
        int ptrace = probes->kind == MG_PROBE_PTRACE ? cause == MG_OBSERVE_OK
                                                     : probes->by_ptrace && probes->by_ptrace[r];
        int shm = !ptrace && cause == MG_OBSERVE_OK;
        sampler[r] = ptrace ? "ptrace" : shm ? "shm" : NULL;
        seen->by_ptrace += ptrace;
        seen->by_shm += shm;
    }
    if (observer)
        cli_session_record_observation(s, observer, sampler);
}

/* Says why the watch set a suspicion aside, on stderr and in the trace. The first one is said
 * without -v too (*set_aside_said keeps that it was): a user who waits for a verdict learns that a
 * hang was suspected, what was seen and that watching goes on. */
static void say_set_aside(const struct hang_watch_step *step, double now, FILE *trace,
                          bool *set_aside_said)
{
    char why[256];
    switch (step->result.kind) {
    case HANG_DIAG_SUSPENDED:
        snprintf(why, sizeof why, "the whole job was stopped during verification");
        break;
    case HANG_DIAG_STARVED:
        snprintf(why, sizeof why,
                 "rank %d was kept from running during verification (a busy node, a CPU quota), "
                 "so its silence says nothing",
                 step->starved_rank);
        if (trace)
            fprintf(trace, "# starved %.3f\n", now);
        break;
    default:
        snprintf(why, sizeof why, "rank %d made progress (a transient slowdown)",
                 step->result.progress_rank);
        if (trace)
            fprintf(trace, "# resume %.3f\n", now);
        break;
    }
    if (*set_aside_said)
        mg_info("hang: a suspected hang was set aside: %s; watching goes on", why);
    else
        mg_warn("hang: a suspected hang was set aside: %s; watching goes on (-v says each "
                "later one)",
                why);
    *set_aside_said = true;
}

/* Says what the watch's last step led to (hang_watch_event), on stderr and in the trace. */
static void say_events(const struct hang_watch_step *step, double now, FILE *trace,
                       bool *set_aside_said)
{
    if (trace && (step->events & HANG_WATCH_OBSERVED))
        fprintf(trace, "%.3f %zu %zu\n", now, step->out_mpi, step->sampled);
    if (step->events & HANG_WATCH_BUILT) {
        mg_info("hang: the model is built (%.1f s of samples); suspicions count from now", now);
        if (trace)
            fprintf(trace, "# built %.3f\n", now);
    }
    if (step->events & HANG_WATCH_JOB_STOPPED) {
        mg_warn("hang: every rank of the job is stopped (a suspended job: scontrol suspend, "
                "SIGSTOP, Ctrl-Z); the model waits until they run again");
        if (trace)
            fprintf(trace, "# stopped %.3f\n", now);
    }
    if (step->events & HANG_WATCH_JOB_RUNS) {
        mg_warn("hang: the job runs again (stopped for at most %.1f s); the model goes on",
                step->stopped_for);
        if (trace)
            fprintf(trace, "# running %.3f\n", now);
    }
    if (step->events & HANG_WATCH_STILL) {
        mg_info("hang: every rank has waited in MPI with no call completed since %.1f s: "
                "verifying without the model (a hang from the first call?)",
                step->still_since);
        if (trace)
            fprintf(trace, "# still %.3f\n", now);
    }
    if (step->events & HANG_WATCH_HELD)
        mg_info("hang: rank %d has stood inside a polling call since %.1f s while others' calls "
                "complete: verifying",
                step->held_rank, step->held_since);
    if (step->events & HANG_WATCH_SUSPECTED)
        mg_info("hang: a hang is suspected at %.1f s: verifying", now);
    /* no rank is named when none had its CPU time read (every reading failed) */
    if ((step->events & HANG_WATCH_STRETCHED) && step->short_rank != SIZE_MAX)
        mg_info("hang: verification scan %zu came %.1f s after the one before: rank %zu was kept "
                "from running (the node is busy with other work, or a CPU quota)",
                step->scan_number, step->gap_took, step->short_rank);
    else if (step->events & HANG_WATCH_STRETCHED)
        mg_info("hang: verification scan %zu came %.1f s after the one before (the node is busy)",
                step->scan_number, step->gap_took);
    if (step->events & HANG_WATCH_SET_ASIDE)
        say_set_aside(step, now, trace, set_aside_said);
}

/* The watch's parameters from the options. */
static void watch_params(const hang_options *o, struct hang_watch_params *wp)
{
    static bool polling[MG_FN_COUNT];
    for (unsigned f = 0; f < MG_FN_COUNT; f++)
        polling[f] = mg_fn_class_of(f) == MG_CLASS_POLL;
    hang_watch_params_default(wp);
    wp->nscans = (size_t)o->verify_scans;
    wp->scan_gap = o->verify_gap;
    wp->polling = polling;
    wp->npolling = MG_FN_COUNT;
}

/* Reads what the watch's step asks for into readings. */
static void take_readings(hang_probes *probes, const struct hang_watch_step *step,
                          struct hang_watch_reading *readings)
{
    const int *ranks = step->action == HANG_WATCH_SAMPLE ? step->ranks : NULL;
    int how = step->gap_only ? MG_PROBE_GAP_ONLY : step->with_cpu ? MG_PROBE_CPU_TIME : 0;
    /* through agents, one frame each way per agent; without memory for it, one per rank */
    if (probes->remote)
        (void)hang_remote_prefetch(probes->remote, ranks, step->count, how);
    for (size_t i = 0; i < step->count; i++) {
        int r = ranks ? ranks[i] : (int)i;
        hang_probes_read_for_watch(probes, r, how, &readings[i]);
    }
}

/* How long a rank may be dead while the job runs on before mpiguard calls it a hang: a launcher
 * that ends a job after a rank's death does so within a second. */
#define DEAD_RANK_GRACE_S 3.0

/* The dead rank (hang_dead_rank) after taking the exits announced so far. */
static int poll_dead_rank(const cli_session *s, proc_exits *exits)
{
    for (int r = 0; exits && r < s->job.nranks; r++)
        proc_exits_set_pid(exits, r, s->job.ranks[r].pid);
    if (proc_exits_poll(exits) == MG_EFULL)
        mg_info("hang: the kernel dropped process events (a busy machine): a rank's exit status "
                "may be missing");
    return hang_dead_rank(s, exits);
}

/* How long the job's end waits for the exit events of ranks already gone (dead_rank_at_end). */
#define END_EXITS_WAIT_S 1.0

/* Whether every rank's exit has been announced. */
static bool every_exit_seen(const cli_session *s, const proc_exits *exits)
{
    int wait_status;
    uint64_t when;
    for (int r = 0; r < s->job.nranks; r++)
        if (s->job.ranks[r].pid && !proc_exits_status(exits, r, &wait_status, &when))
            return false;
    return true;
}

/* The rank that died first, once the launcher has ended the job. A rank's exit event comes at the
 * very end of its exit, after its parent may already have reaped it and the launcher killed the
 * others: on a loaded machine the rank that died first can be announced last. So the events of
 * every rank are awaited, for at most END_EXITS_WAIT_S. */
static int dead_rank_at_end(const cli_session *s, proc_exits *exits)
{
    double deadline = mg_clock_seconds() + END_EXITS_WAIT_S;
    for (;;) {
        int dead = poll_dead_rank(s, exits);
        if (!exits || every_exit_seen(s, exits) || mg_clock_seconds() >= deadline)
            return dead;
        usleep(20000);
    }
}

/* One watch of a job: what it reads with, what it decides with, and what it has said. */
typedef struct hang_watcher {
    cli_session *s;
    const hang_options *o;
    hang_action action;
    int sig;
    const char *cmd;
    hang_remote *remote;
    proc_exits *exits;
    struct hang_model *model;
    struct hang_watch *engine;
    struct hang_watch_reading *readings;
    hang_probes probes;
    observe_ranks *observer;
    int by_state; /* the observer judges the ranks by their published state (else by stack) */
    FILE *trace;
    double start, last_progress, built_at, dead_since;
    bool set_aside_said;
} hang_watcher;

/* The session's ranks as the agents own them: a rank no agent owns is not found. 0, or
 * MG_EXIT_SOFTWARE (said). */
static int take_agents_ranks(cli_session *s, const hang_remote *remote)
{
    if (s->job.nranks == 0) {
        int world = hang_remote_world(remote);
        if (!(s->job.ranks = calloc((size_t)world, sizeof *s->job.ranks))) {
            mg_error("hang: %s", mg_strerror(MG_ENOMEM));
            return MG_EXIT_SOFTWARE;
        }
        s->job.nranks = world;
    }
    s->job.found = 0;
    for (int r = 0; r < s->job.nranks; r++) {
        const char *node;
        s->job.ranks[r].pid = hang_remote_pid(remote, r, &node);
        snprintf(s->job.ranks[r].host, sizeof s->job.ranks[r].host, "%s", node);
        s->job.found += s->job.ranks[r].pid != 0;
    }
    return 0;
}

/* Finds the ranks and starts the agents. 0, or the status watch returns: 1 when the job ended
 * first (seen->ended_in_discovery), the discovery's or the agents' error. */
static int watcher_find_ranks(hang_watcher *w, hang_seen *seen)
{
    const hang_options *o = w->o;
    /* Agents on other nodes find the ranks; local agents need the world size to share it out.
     * A rank's exit is seen here unless agents read the ranks. */
    int waited = o->agent_launcher ? 0 : wait_for_ranks(w->s, o->agents ? NULL : &w->exits);
    if (waited) {
        seen->ended_in_discovery = waited == 1;
        return waited;
    }
    if (!o->agents && !o->agent_launcher)
        return 0;
    hang_remote_options ro = {.token = w->s->job.token,
                              .world = w->s->job.nranks,
                              .local_agents = (int)o->agents,
                              .agent_launcher = o->agent_launcher,
                              .sampler = o->sampler == SAMPLER_PTRACE ? "ptrace" : "shm",
                              .connect_timeout = 60,
                              .fanout = (int)o->agent_fanout};
    int rc = hang_remote_start(&ro, &w->remote);
    return rc ? rc : take_agents_ranks(w->s, w->remote);
}

/* The model and the watch engine over it. 0, MG_EXIT_USAGE or MG_EXIT_SOFTWARE (said). */
static int watcher_create_engine(hang_watcher *w)
{
    const hang_options *o = w->o;
    struct hang_model_params params;
    hang_model_params_default(&params);
    params.alpha = o->alpha;
    params.set_size = (size_t)o->set_size;
    if (o->interval > 0)
        params.interval_init = o->interval;
    if (o->max_interval > 0)
        params.interval_max = o->max_interval;
    uint64_t seed = o->seed >= 0 ? (uint64_t)o->seed : (uint64_t)time(NULL) ^ (uint64_t)getpid();
    if (hang_model_create(&params, (size_t)w->s->job.nranks, seed, &w->model) != 0) {
        mg_error("hang: invalid model parameters");
        return MG_EXIT_USAGE;
    }
    struct hang_watch_params wp;
    watch_params(o, &wp);
    struct hang_detector detector = hang_detector_model(w->model);
    w->readings = calloc((size_t)w->s->job.nranks, sizeof *w->readings);
    if (!w->readings ||
        hang_watch_create(&wp, &detector, (size_t)w->s->job.nranks, &w->engine) != MG_OK) {
        mg_error("hang: out of memory");
        return MG_EXIT_SOFTWARE;
    }
    return 0;
}

/* The probes, the observer of blind ranks, the trace, and the start line. */
static void watcher_open_probes(hang_watcher *w)
{
    const hang_options *o = w->o;
    cli_session *s = w->s;
    w->probes = (hang_probes){.job = &s->job,
                              .kind = o->sampler == SAMPLER_PTRACE ? MG_PROBE_PTRACE : MG_PROBE_SHM,
                              .remote = w->remote,
                              .probe = calloc((size_t)s->job.nranks, sizeof(mg_rank_probe *)),
                              .warned = calloc((size_t)s->job.nranks, 1)};
    /* judged here unless agents read the ranks on other nodes: with shm by what the ranks
     * published (not known of an attached job), with ptrace by what their processes map */
    w->by_state = w->probes.kind == MG_PROBE_SHM && !o->agent_launcher && !s->job.attached;
    int by_stack = w->probes.kind == MG_PROBE_PTRACE && !o->agent_launcher;
    if (w->by_state || by_stack) {
        w->observer = observe_ranks_create(&s->job, w->by_state ? observe_ranks_by_state : NULL,
                                           &s->job);
        if (!w->observer)
            mg_warn("hang: out of memory: a rank the shm sampler cannot see will not be named");
    }
    struct hang_model_state st;
    hang_model_state(w->model, &st);
    if (!cli_opts.quiet)
        fprintf(stderr,
                "mpiguard: hang: watching %d ranks (sampler %s, alpha %g, %zu ranks per set%s)\n",
                s->job.nranks, w->probes.kind == MG_PROBE_SHM ? "shm" : "ptrace", o->alpha,
                st.set_size, st.reduced ? ", fewer than 2C ranks" : "");
    w->trace = o->trace ? fopen(o->trace, "w") : NULL;
    if (o->trace && !w->trace)
        mg_warn("hang: cannot write the trace '%s'; watching without it", o->trace);
}

/* Whether a rank has been dead for DEAD_RANK_GRACE_S while the job runs on: then reported and
 * acted on. */
static bool dead_rank_holds_job(hang_watcher *w)
{
    double dead_at = mg_clock_seconds() - w->start;
    int dead = w->remote ? -1 : poll_dead_rank(w->s, w->exits);
    if (dead < 0 || w->dead_since < 0) {
        w->dead_since = dead < 0 ? -1 : dead_at;
        return false;
    }
    if (dead_at - w->dead_since < DEAD_RANK_GRACE_S)
        return false;
    hang_report_dead_rank(w->s, dead, w->exits, false, dead_at);
    cli_session_save(w->s);
    int faulty[1] = {dead};
    act(w->s, w->action, w->sig, w->cmd, faulty, 1);
    return true;
}

/* Before a sample: hands the ranks the shm sampler cannot see to ptrace. False when out of
 * memory (said). */
static bool watcher_observe(hang_watcher *w)
{
    if (w->by_state)
        job_session_discover(&w->s->job); /* maps the states the observer reads */
    if (observe_ranks_update(w->observer, 0) && w->by_state && !w->remote &&
        switch_blind_ranks(&w->probes, w->observer)) {
        mg_error("hang: out of memory");
        return false;
    }
    return true;
}

/* The verdict: the report, then the action. */
static void watcher_verdict(hang_watcher *w, const struct hang_watch_step *step, double now)
{
    json_object *model_data = model_json(w->model, w->o, w->built_at);
    json_object_object_add(model_data, "decided_by",
                           json_object_new_string(step->held_rank >= 0 ? "held-in-poll rule"
                                                  : step->from_start   ? "first-call rule"
                                                                       : "model"));
    hang_report(w->s, &w->probes, &step->result, hang_watch_faulty(w->engine),
                hang_watch_last_scan(w->engine), now, model_data);
    cli_session_save(w->s);
    act(w->s, w->action, w->sig, w->cmd, hang_watch_faulty(w->engine), step->result.nfaulty);
}

/* Says the step's events and, with --progress, the model's state every 2 s. */
static void watcher_say(hang_watcher *w, const struct hang_watch_step *step, double now)
{
    say_events(step, now, w->trace, &w->set_aside_said);
    if (step->events & HANG_WATCH_BUILT)
        w->built_at = now;
    if (w->o->progress && (step->events & HANG_WATCH_OBSERVED) && now - w->last_progress >= 2.0) {
        struct hang_model_state st;
        hang_model_state(w->model, &st);
        print_progress(&st, now);
        w->last_progress = now;
    }
}

/* Drives the engine until the job ends, a hang is found or the watch fails: waits, reads, says.
 * Returns MG_EXIT_HANG on a verdict (or a dead rank holding the job), else 0; *rc is the engine's
 * error, MG_OK when none. */
static int watcher_run(hang_watcher *w, int *rc)
{
    struct hang_watch_step step;
    *rc = hang_watch_begin(w->engine, 0, &step);
    while (*rc == MG_OK) {
        double wait = step.at - (mg_clock_seconds() - w->start);
        if (job_session_wait(&w->s->job, wait > 0 ? (int)(wait * 1000) : 0))
            return 0;
        if (dead_rank_holds_job(w))
            return MG_EXIT_HANG;
        if (step.action == HANG_WATCH_SAMPLE && w->observer && !watcher_observe(w))
            return 0;
        take_readings(&w->probes, &step, w->readings);
        double now = mg_clock_seconds() - w->start;
        if ((*rc = hang_watch_feed(w->engine, w->readings, now, &step)) != MG_OK)
            break;
        watcher_say(w, &step, now);
        if (step.action == HANG_WATCH_VERDICT) {
            watcher_verdict(w, &step, now);
            return MG_EXIT_HANG;
        }
    }
    return 0;
}

/* After the watch: a rank that died before the job's end, the watch's failure, its cost, what
 * was observed; frees what the watcher holds. Returns the status. */
static int watcher_finish(hang_watcher *w, int status, int rc, hang_seen *seen)
{
    cli_session *s = w->s;
    if (!status && rc == MG_OK && !w->remote && !mg_job_interrupting_signal(s->job.process) &&
        (seen->dead_rank = dead_rank_at_end(s, w->exits)) >= 0) {
        hang_report_dead_rank(s, seen->dead_rank, w->exits, true, mg_clock_seconds() - w->start);
        s->job.ended_itself = 1;
    }
    if (rc != MG_OK) {
        /* never reported clean: the job runs on unwatched to its end, and the status says so */
        mg_error("hang: the watch stopped: %s; the job is no longer watched", mg_strerror(rc));
        status = MG_EXIT_SOFTWARE;
    }
    if (w->trace)
        fclose(w->trace);
    record_cost(s, &w->probes, mg_clock_seconds() - w->start);
    if (w->observer)
        observe_ranks_update(w->observer, 1);
    record_observation(w->s, &w->probes, w->observer, seen);
    return status;
}

/* Frees what the watcher holds (any of it may be missing). */
static void watcher_free(hang_watcher *w)
{
    proc_exits_close(w->exits);
    observe_ranks_destroy(w->observer);
    if (w->probes.job)
        hang_probes_close(&w->probes);
    /* the agents' copies of published waits die with the agents' link: not segments to unmap */
    for (int r = 0; r < w->s->job.nranks; r++)
        if (hang_remote_forwarded(w->remote, w->s->job.ranks[r].state))
            w->s->job.ranks[r].state = NULL;
    hang_remote_stop(w->remote);
    free(w->readings);
    hang_watch_destroy(w->engine);
    hang_model_destroy(w->model);
}

/* Watches until the job ends or a hang is confirmed; returns the finding's exit status or 0. With
 * the local shm sampler, a rank it cannot see is read by ptrace once found blind (observe_ranks.h).
 * The decisions are the watch engine's (hang_watch.h); this loop waits, reads and says. */
static int watch(cli_session *s, const hang_options *o, hang_action action, int sig,
                 const char *cmd, hang_seen *seen)
{
    hang_watcher w = {
        .s = s, .o = o, .action = action, .sig = sig, .cmd = cmd, .built_at = -1, .dead_since = -1};
    int status = watcher_find_ranks(&w, seen);
    if (status == 0)
        status = watcher_create_engine(&w);
    if (status) {
        watcher_free(&w);
        return status == 1 ? 0 : status;
    }
    watcher_open_probes(&w);
    w.start = mg_clock_seconds();
    int rc;
    status = watcher_run(&w, &rc);
    status = watcher_finish(&w, status, rc, seen);
    watcher_free(&w);
    if (status && (action != ACTION_KILL || status == MG_EXIT_SOFTWARE))
        while (!job_session_wait(&s->job, 1000))
            ;
    return status;
}

static const char hang_usage[] = "mpiguard hang [options] -- <launcher> <args>";

/* Parses the command line into *o and *args; the cli_parse status, *done when it said all (help).
 */
static int parse_options(int argc, char **argv, hang_options *o, mg_parsed_args *args, int *done)
{
    const mg_option options[] = {
        {"alpha", 0, MG_OPT_DOUBLE, &o->alpha, "A",
         "report a hang at confidence 1-A (default 0.001)", NULL, 1e-9, 0.5},
        {"sampler", 0, MG_OPT_CHOICE, &o->sampler, "auto|shm|ptrace",
         "how ranks are looked at (auto: shm, which needs nothing stopped)", sampler_choices, 0, 0},
        {"on-hang", 0, MG_OPT_STRING, &o->on_hang, "ACTION",
         "kill (default) | report | signal:SIG | exec:CMD", NULL, 0, 0},
        {"progress", 0, MG_OPT_FLAG, &o->progress, NULL, "print the model's state every 2 s", NULL,
         0, 0},
        {"interval", 0, MG_OPT_DOUBLE, &o->interval, "SECONDS",
         "initial mean sampling interval I (default 0.4)", NULL, 0.001, 60},
        {"max-interval", 0, MG_OPT_DOUBLE, &o->max_interval, "SECONDS",
         "cap on I as it doubles (default 6.4)", NULL, 0.001, 600},
        {"set-size", 0, MG_OPT_INT, &o->set_size, "C", "ranks per sampled set (default 10)", NULL,
         1, 1000},
        {"verify-scans", 0, MG_OPT_INT, &o->verify_scans, "N",
         "scans of every rank that confirm a hang (default 3)", NULL, 2, 100},
        {"verify-gap", 0, MG_OPT_DOUBLE, &o->verify_gap, "SECONDS",
         "time between those scans, in each rank's own time (default 1)", NULL, 0.01, 60},
        {"attach", 0, MG_OPT_STRING, &o->attach, "PID|JOBID",
         "watch a running job: its launcher's pid, or a Slurm job id (no command then); "
         "pid:N or slurm:N where a number could be both",
         NULL, 0, 0},
        {"trace", 0, MG_OPT_STRING | MG_OPT_HIDDEN, &o->trace, "FILE",
         "write every observation (time, sampled ranks outside MPI, set size) to FILE", NULL, 0, 0},
        {"agents", 0, MG_OPT_INT | MG_OPT_HIDDEN, &o->agents, "N",
         "look at the ranks through N agents on this machine, each owning a share", NULL, 1, 4096},
        {"agent-launcher", 0, MG_OPT_STRING, &o->agent_launcher, "CMD",
         "start one agent per node with CMD, e.g. 'srun --overlap --ntasks-per-node=1'", NULL, 0,
         0},
        {"agent-fanout", 0, MG_OPT_INT, &o->agent_fanout, "F",
         "read the agents through relays of F agents each, so that mpiguard holds one "
         "connection per relay (default 0: directly)",
         NULL, 2, 4096},
        {"seed", 0, MG_OPT_INT, &o->seed, "N",
         "seed of the random sampling (default: from the clock)", NULL, 0, 2147483647},
        {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0},
    };
    return cli_parse(
        hang_usage,
        "Run an MPI job and watch it for hangs with ParaStack's statistical model: no\n"
        "timeout to choose. On a hang: verify, name the faulty ranks, report, act.",
        options, argc, argv, 0, NULL, 0, args, done);
}

/* The closing line of a watch that found no hang, or why it could not watch. */
static void say_no_hang(const cli_session *s, const hang_seen *seen)
{
    if (cli_opts.quiet)
        return;
    if (seen->ended_in_discovery)
        fprintf(stderr,
                "mpiguard: hang: the job ended before all its ranks were found (%d found): it did "
                "not hang, and was too short to watch\n",
                s->job.found);
    else if (seen->dead_rank < 0 && !mg_job_interrupting_signal(s->job.process))
        fprintf(stderr,
                "mpiguard: hang: no hang found in %d of %d ranks observed (%d by shm, %d by "
                "ptrace)\n",
                seen->by_shm + seen->by_ptrace, s->job.nranks, seen->by_shm, seen->by_ptrace);
}

int cmd_hang(int argc, char **argv)
{
    hang_options o = {.alpha = 0.001,
                      .set_size = 10,
                      .verify_scans = 3,
                      .verify_gap = 1.0,
                      .seed = -1,
                      .on_hang = "kill"};
    mg_parsed_args args;
    int done;
    int rc = parse_options(argc, argv, &o, &args, &done);
    if (rc || done)
        return rc;
    if (!o.attach == !args.command || (args.command && args.ncommand == 0)) {
        mg_error(o.attach ? "--attach watches a running job: give no command after '--'"
                          : "missing '--' and the launcher command (or --attach PID|JOBID)");
        fprintf(stderr, "usage: %s\n       mpiguard hang [options] --attach PID|JOBID\n",
                hang_usage);
        return MG_EXIT_USAGE;
    }
    if (o.agent_fanout && !o.agents && !o.agent_launcher) {
        mg_error("--agent-fanout relays agents: give --agents N or --agent-launcher CMD too");
        return MG_EXIT_USAGE;
    }
    hang_action action;
    int sig = 0;
    const char *cmd = NULL;
    if (parse_action(o.on_hang, &action, &sig, &cmd) != 0) {
        mg_error("--on-hang takes kill, report, signal:SIG or exec:CMD, not '%s'", o.on_hang);
        return MG_EXIT_USAGE;
    }
    cli_session s;
    const char *modules = o.sampler == SAMPLER_PTRACE ? "" : "state";
    job_session_add_env(MG_ENV_STATE_WAITS, "1");
    rc = o.attach ? cli_session_attach(&s, "hang", o.attach)
                  : cli_session_start(&s, "hang", modules, args.command, args.ncommand);
    if (rc)
        return rc;
    if (o.attach && !s.job.token[0] && o.sampler != SAMPLER_PTRACE) {
        if (o.sampler == SAMPLER_SHM)
            mg_warn(
                "hang: the job was not started under mpiguard: no published state, using ptrace");
        o.sampler = SAMPLER_PTRACE;
    }
    mg_job_set_signal_hook(mg_rank_probe_abort_all);
    hang_seen seen = {.dead_rank = -1};
    int status = watch(&s, &o, action, sig, cmd, &seen);
    /* a job that ended after a rank's death with status 0 must not read as clean */
    if (!status && seen.dead_rank >= 0 && mg_job_exit_status(s.job.process) == 0)
        status = MG_EXIT_FINDINGS;
    if (!status)
        say_no_hang(&s, &seen);
    /* a rank unread since its agent was lost could have hung: the run is not clean */
    if (!status && seen.lost > 0)
        status = MG_EXIT_UNOBSERVED;
    return cli_session_finish(&s, status);
}
