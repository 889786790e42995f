/* `mpiguard hang`: runs (or attaches to) a job and watches it with ParaStack's model; on a hang it
 * verifies, diagnoses, reports and acts (docs/design/hang.md, docs/hang.md). */
#include "cli.h"
#include "hang_diagnosis.h"
#include "hang_watcher.h"

#include "mg_clock.h"
#include "mg_env.h"
#include "mg_exit.h"
#include "mg_log.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static const char *const sampler_choices[] = {"auto", "shm", "ptrace", NULL};
enum { SAMPLER_AUTO, SAMPLER_SHM, SAMPLER_PTRACE };

typedef struct hang_options {
    double alpha, interval, max_interval, verify_gap;
    long set_size, verify_scans, seed, agents, agent_fanout;
    int sampler, progress;
    const char *on_hang, *attach, *trace, *agent_launcher;
} hang_options;

/* "kill", "report", "signal:SIG" (name with or without SIG, or number), "exec:CMD". */
static int parse_action(const char *text, hang_watcher_params *p)
{
    if (strcmp(text, "kill") == 0)
        p->action = HANG_WATCHER_ACTION_KILL;
    else if (strcmp(text, "report") == 0)
        p->action = HANG_WATCHER_ACTION_REPORT;
    else if (strncmp(text, "exec:", 5) == 0 && text[5]) {
        p->action = HANG_WATCHER_ACTION_EXEC;
        p->cmd = text + 5;
    } else if (strncmp(text, "signal:", 7) == 0 && text[7]) {
        const char *name = text + 7;
        p->action = HANG_WATCHER_ACTION_SIGNAL;
        p->sig = atoi(name);
        if (strncmp(name, "SIG", 3) == 0)
            name += 3;
        for (int k = 1; k < NSIG && p->sig <= 0; k++) {
            const char *abbrev = sigabbrev_np(k);
            if (abbrev && strcmp(abbrev, name) == 0)
                p->sig = k;
        }
        return p->sig > 0 && p->sig < NSIG ? 0 : -1;
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
 * and mpiguard's own CPU time (taken from the job when they share cores). Ranks read through agents
 * count as local ones: their agents time the stops alike. Wall-time ratios cannot resolve
 * sub-percent costs on a loaded machine; these are measured directly (docs/hang-measurements.md
 * "Overhead"). */
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
    json_object_object_add(c, "frozen_s", json_object_new_double(frozen));
    json_object_object_add(c, "held_s", json_object_new_double(held));
    json_object_object_add(c, "frozen_fraction", json_object_new_double(frozen / span));
    json_object_object_add(c, "held_fraction", json_object_new_double(held / span));
    /* by rank, null for one never read: a rank whose cost is unknown is not shown as free */
    int most = -1;
    if (p->rank_cost) {
        json_object *by = json_object_new_array();
        for (int r = 0; r < p->job->nranks; r++) {
            const hang_probes_cost *rc = &p->rank_cost[r];
            json_object_array_add(
                by,
                rc->readings ? json_object_new_double(1e-9 * (double)rc->held_ns / span) : NULL);
            if (rc->readings && (most < 0 || rc->held_ns > p->rank_cost[most].held_ns))
                most = r;
        }
        json_object_object_add(c, "held_fraction_by_rank", by);
    }
    json_object_object_add(c, "monitor_cpu_s", json_object_new_double(cpu));
    json_object_object_add(c, "monitor_cpu_fraction", json_object_new_double(cpu / span));
    json_object_object_add(report_tool_data(s->report), "monitor_cost", c);
    char stops[192] = "";
    if (p->held_ns > 0 && most >= 0)
        snprintf(stops, sizeof stops,
                 "; ranks stopped %.3f-%.3f s (%.3f-%.3f%% of the time), rank %d the most "
                 "(held %.3f%%)",
                 frozen, held, 100 * frozen / span, 100 * held / span, most,
                 100e-9 * (double)p->rank_cost[most].held_ns / span);
    mg_log_info(
        "hang: monitoring cost: %llu rank readings in %.1f s%s; mpiguard used %.2f%% of a core",
        (unsigned long long)p->readings, watched, stops, 100 * cpu / span);
}

/* Says why the watch set a suspicion aside, on stderr and in the trace. The first one is said
 * without -v too (*set_aside_said keeps that it was): a user who waits for a verdict learns that a
 * hang was suspected, what was seen and that watching goes on. */
static void say_set_aside(const struct hang_watch_step *step, double now, FILE *trace,
                          bool *set_aside_said)
{
    char why[256];
    const char *mark = hang_watch_set_aside_reason(step, why, sizeof why);
    if (trace && mark)
        fprintf(trace, "# %s %.3f\n", mark, now);
    if (*set_aside_said)
        mg_log_info("hang: a suspected hang was set aside: %s; watching goes on", why);
    else
        mg_log_warn("hang: a suspected hang was set aside: %s; watching goes on (-v says each "
                    "later one)",
                    why);
    *set_aside_said = true;
}

/* The trace's mark of each event that has one ("# built 12.300"), in the order they are written. */
static const struct {
    unsigned event;
    const char *mark;
} trace_marks[] = {{HANG_WATCH_BUILT, "built"},
                   {HANG_WATCH_JOB_STOPPED, "stopped"},
                   {HANG_WATCH_JOB_RUNS, "running"},
                   {HANG_WATCH_STILL, "still"},
                   {HANG_WATCH_HALTED, "halted"}};

/* Says what the watch's last step led to (hang_watch_event), on stderr and in the trace; built_at:
 * when the model was built, negative before. */
static void say_events(const struct hang_watch_step *step, double now, double built_at, FILE *trace,
                       bool *set_aside_said)
{
    if (trace && (step->events & HANG_WATCH_OBSERVED))
        fprintf(trace, "%.3f %zu %zu\n", now, step->out_mpi, step->sampled);
    for (size_t i = 0; trace && i < sizeof trace_marks / sizeof *trace_marks; i++)
        if (step->events & trace_marks[i].event)
            fprintf(trace, "# %s %.3f\n", trace_marks[i].mark, now);
    if (step->events & HANG_WATCH_BUILT)
        mg_log_info("hang: the model is built (%.1f s of samples); suspicions count from now", now);
    if (step->events & HANG_WATCH_JOB_STOPPED)
        mg_log_warn("hang: every rank of the job is stopped (a suspended job: scontrol suspend, "
                    "SIGSTOP, Ctrl-Z); the model waits until they run again");
    if (step->events & HANG_WATCH_JOB_RUNS)
        mg_log_warn("hang: the job runs again (stopped for at most %.1f s); the model goes on",
                    step->stopped_for);
    if (step->events & HANG_WATCH_STILL)
        mg_log_info("hang: every rank has waited in MPI with no call completed since %.1f s: "
                    "verifying without the model (a hang from the first call?)",
                    step->still_since);
    if (step->events & HANG_WATCH_HALTED) {
        /* the rule also goes on after the build while no call is seen to complete (a job attached
         * to, already halted, is verified just after it) */
        char when[160] = "before the model was built";
        if (built_at >= 0)
            snprintf(when, sizeof when,
                     "and none was seen to complete since the model was built at %.1f s (it may "
                     "have learnt the halt as the job's normal)",
                     built_at);
        mg_log_info(
            "hang: no MPI call has completed since %.1f s, every rank waiting in MPI but rank "
            "%d, outside it, %s: verifying without the model",
            step->still_since, step->halted_rank, when);
    }
    if (step->events & HANG_WATCH_HELD)
        mg_log_info(
            "hang: rank %d has stood inside a polling call since %.1f s while others' calls "
            "complete: verifying",
            step->held_rank, step->held_since);
    if (step->events & HANG_WATCH_SUSPECTED)
        mg_log_info("hang: a hang is suspected at %.1f s: verifying", now);
    /* no rank is named when none had its CPU time read (every reading failed) */
    if ((step->events & HANG_WATCH_STRETCHED) && step->short_rank != SIZE_MAX)
        mg_log_info(
            "hang: verification scan %zu came %.1f s after the one before: rank %zu was kept "
            "from running (the node is busy with other work, or a CPU quota)",
            step->scan_number, step->gap_took, step->short_rank);
    else if (step->events & HANG_WATCH_STRETCHED)
        mg_log_info(
            "hang: verification scan %zu came %.1f s after the one before (the node is busy)",
            step->scan_number, step->gap_took);
    if (step->events & HANG_WATCH_SET_ASIDE)
        say_set_aside(step, now, trace, set_aside_said);
}

/* What the watch has said, for the watcher's hooks (hang_watcher.h). */
typedef struct hang_front {
    cli_session *s;
    const hang_options *o;
    hang_watcher w;
    FILE *trace;
    double last_progress, built_at;
    bool set_aside_said;
} hang_front;

/* Says the step's events and, with --progress, the model's state every 2 s. */
static void front_step(void *ctx, const struct hang_watch_step *step, double now)
{
    hang_front *f = ctx;
    say_events(step, now, f->built_at, f->trace, &f->set_aside_said);
    if (step->events & HANG_WATCH_BUILT)
        f->built_at = now;
    if (f->o->progress && (step->events & HANG_WATCH_OBSERVED) && now - f->last_progress >= 2.0) {
        struct hang_model_state st;
        hang_model_state(f->w.model, &st);
        print_progress(&st, now);
        f->last_progress = now;
    }
}

/* The verdict's report, saved before the action. */
static void front_verdict(void *ctx, const struct hang_watch_step *step, double now)
{
    hang_front *f = ctx;
    json_object *model_data = model_json(f->w.model, f->o, f->built_at);
    json_object_object_add(model_data, "decided_by",
                           json_object_new_string(hang_watch_decided_by(step)));
    hang_diagnosis_report(f->s, &f->w.probes, &step->result, hang_watch_faulty(f->w.engine),
                          hang_watch_last_scan(f->w.engine), now, model_data);
    cli_session_save(f->s);
}

/* A dead rank's report; saved before the action when the job runs on. */
static void front_dead_rank(void *ctx, int rank, bool job_ended, double now)
{
    hang_front *f = ctx;
    hang_diagnosis_report_dead_rank(f->s, rank, f->w.exits, job_ended, now);
    if (!job_ended)
        cli_session_save(f->s);
}

/* The start line and the trace. */
static void front_open(hang_front *f)
{
    struct hang_model_state st;
    hang_model_state(f->w.model, &st);
    cli_options_say("hang", "watching %d ranks (sampler %s, alpha %g, %zu ranks per set%s)",
                    f->s->job.nranks, f->w.probes.kind == RANK_PROBE_SHM ? "shm" : "ptrace",
                    f->o->alpha, st.set_size, st.reduced ? ", fewer than 2C ranks" : "");
    f->trace = f->o->trace ? fopen(f->o->trace, "w") : NULL;
    if (f->o->trace && !f->trace)
        mg_log_warn("hang: cannot write the trace '%s'; watching without it", f->o->trace);
    /* the watch's time 0 on the wall clock, which a job's own logs (a fault's moment) are in */
    struct timespec wall;
    if (f->trace && clock_gettime(CLOCK_REALTIME, &wall) == 0)
        fprintf(f->trace, "# start_unix %.3f\n",
                (double)wall.tv_sec + 1e-9 * (double)wall.tv_nsec -
                    (mg_clock_seconds() - f->w.start));
}

/* Watches until the job ends or a hang is confirmed; returns the finding's exit status or 0. The
 * watcher waits, reads and acts (hang_watcher.h), the engine decides (hang_watch.h); this says. */
static int watch(cli_session *s, const hang_options *o, const hang_watcher_params *p,
                 hang_watcher_seen *seen)
{
    hang_front f = {.s = s, .o = o, .built_at = -1};
    const hang_watcher_hooks hooks = {&f, front_step, front_verdict, front_dead_rank};
    int status = hang_watcher_open(&f.w, &s->job, p, &hooks, seen);
    if (status) {
        hang_watcher_free(&f.w);
        return status == 1 ? 0 : status;
    }
    front_open(&f);
    int rc, n = s->job.nranks;
    status = hang_watcher_run(&f.w, &rc);
    const char *sampler[n > 0 ? n : 1];
    status = hang_watcher_finish(&f.w, status, rc, seen, sampler);
    if (f.trace)
        fclose(f.trace);
    record_cost(s, &f.w.probes, mg_clock_seconds() - f.w.start);
    if (f.w.observer)
        cli_session_record_observation(s, f.w.observer, sampler);
    hang_watcher_free(&f.w);
    if (status && (p->action != HANG_WATCHER_ACTION_KILL || status == MG_EXIT_SOFTWARE))
        while (!job_session_wait(&s->job, 1000))
            ;
    return status;
}

static const char hang_usage[] = "mpiguard hang [options] -- <launcher> <args>\n"
                                 "       mpiguard hang [options] --attach PID|JOBID";

/* Parses the command line into *o and *args; the cli_options_parse status, *done when it said all
 * (help).
 */
static int parse_options(int argc, char **argv, hang_options *o, mg_options_parsed_args *args,
                         int *done)
{
    const mg_options_option options[] = {
        {"alpha", 0, MG_OPTIONS_DOUBLE, &o->alpha, "A",
         "report a hang at confidence 1-A (default 0.001)", NULL, 1e-9, 0.5},
        {"sampler", 0, MG_OPTIONS_CHOICE, &o->sampler, "auto|shm|ptrace",
         "how ranks are looked at (auto: shm, which needs nothing stopped)", sampler_choices, 0, 0},
        {"on-hang", 0, MG_OPTIONS_STRING, &o->on_hang, "ACTION",
         "kill (default) | report | signal:SIG | exec:CMD", NULL, 0, 0},
        {"progress", 0, MG_OPTIONS_FLAG, &o->progress, NULL, "print the model's state every 2 s",
         NULL, 0, 0},
        {"interval", 0, MG_OPTIONS_DOUBLE, &o->interval, "SECONDS",
         "initial mean sampling interval I (default 0.4)", NULL, 0.001, 60},
        {"max-interval", 0, MG_OPTIONS_DOUBLE, &o->max_interval, "SECONDS",
         "cap on I as it doubles (default 6.4)", NULL, 0.001, 600},
        {"set-size", 0, MG_OPTIONS_INT, &o->set_size, "C", "ranks per sampled set (default 10)",
         NULL, 1, 1000},
        {"verify-scans", 0, MG_OPTIONS_INT, &o->verify_scans, "N",
         "scans of every rank that confirm a hang (default 3)", NULL, 2, 100},
        {"verify-gap", 0, MG_OPTIONS_DOUBLE, &o->verify_gap, "SECONDS",
         "time between those scans, in each rank's own time (default 1)", NULL, 0.01, 60},
        {"attach", 0, MG_OPTIONS_STRING, &o->attach, "PID|JOBID",
         "watch a running job: its launcher's pid, or a Slurm job id (no command then); "
         "pid:N or slurm:N where a number could be both",
         NULL, 0, 0},
        {"trace", 0, MG_OPTIONS_STRING | MG_OPTIONS_HIDDEN, &o->trace, "FILE",
         "write every observation (time, sampled ranks outside MPI, set size) to FILE", NULL, 0, 0},
        {"agents", 0, MG_OPTIONS_INT | MG_OPTIONS_HIDDEN, &o->agents, "N",
         "look at the ranks through N agents on this machine, each owning a share", NULL, 1, 4096},
        {"agent-launcher", 0, MG_OPTIONS_STRING, &o->agent_launcher, "CMD",
         "start one agent per node with CMD, e.g. 'srun --overlap --ntasks-per-node=1'", NULL, 0,
         0},
        {"agent-fanout", 0, MG_OPTIONS_INT, &o->agent_fanout, "F",
         "read the agents through relays of F agents each, so that mpiguard holds one "
         "connection per relay (default 0: directly)",
         NULL, 2, 4096},
        {"seed", 0, MG_OPTIONS_INT, &o->seed, "N",
         "seed of the random sampling (default: from the clock)", NULL, 0, 2147483647},
        {NULL, 0, 0, NULL, NULL, NULL, NULL, 0, 0},
    };
    return cli_options_parse(
        hang_usage,
        "Run an MPI job and watch it for hangs with ParaStack's statistical model: no\n"
        "timeout to choose. On a hang: verify, name the faulty ranks, report, act.",
        options, argc, argv, 0, NULL, 0, args, done);
}

/* The closing line of a watch that found no hang, or why it could not watch. */
static void say_no_hang(const cli_session *s, const hang_watcher_seen *seen)
{
    if (seen->ended_in_discovery)
        cli_options_say("hang",
                        "the job ended before all its ranks were found (%d found): it did not "
                        "hang, and was too short to watch",
                        s->job.found);
    else if (seen->dead_rank < 0 && !job_interrupting_signal(s->job.process))
        cli_options_say(
            "hang", "no hang found in %d of %d ranks observed (%d by shm, %d by ptrace)",
            seen->by_shm + seen->by_ptrace, s->job.nranks, seen->by_shm, seen->by_ptrace);
}

/* Whether the command line names one job to watch, said with the usage when not: a command after
 * '--' or --attach, not both; relays only for agents. */
static bool job_named(const hang_options *o, const mg_options_parsed_args *args)
{
    if (!o->attach == !args->command || (args->command && args->ncommand == 0)) {
        cli_options_refuse(hang_usage, "%s",
                           o->attach
                               ? "--attach watches a running job: give no command after '--'"
                               : "missing '--' and the launcher command (or --attach PID|JOBID)");
        return false;
    }
    if (o->agent_fanout && !o->agents && !o->agent_launcher) {
        mg_log_error("--agent-fanout relays agents: give --agents N or --agent-launcher CMD too");
        return false;
    }
    return true;
}

/* The watcher's parameters from the options; false when --on-hang is not understood (said). */
static bool watcher_params(const hang_options *o, hang_watcher_params *p)
{
    *p = (hang_watcher_params){.seed = o->seed,
                               .verify_scans = o->verify_scans,
                               .verify_gap = o->verify_gap,
                               .agents = o->agents,
                               .agent_launcher = o->agent_launcher,
                               .agent_fanout = o->agent_fanout,
                               .report_path = cli_options.report_path};
    hang_model_params_default(&p->model);
    p->model.alpha = o->alpha;
    p->model.set_size = (size_t)o->set_size;
    if (o->interval > 0)
        p->model.interval_init = o->interval;
    if (o->max_interval > 0)
        p->model.interval_max = o->max_interval;
    if (parse_action(o->on_hang, p) != 0) {
        mg_log_error("--on-hang takes kill, report, signal:SIG or exec:CMD, not '%s'", o->on_hang);
        return false;
    }
    return true;
}

int cmd_hang(int argc, char **argv)
{
    hang_options o = {.alpha = 0.001,
                      .set_size = 10,
                      .verify_scans = 3,
                      .verify_gap = 1.0,
                      .seed = -1,
                      .on_hang = "kill"};
    mg_options_parsed_args args;
    int done;
    int rc = parse_options(argc, argv, &o, &args, &done);
    if (rc || done)
        return rc;
    hang_watcher_params p;
    if (!job_named(&o, &args) || !watcher_params(&o, &p))
        return MG_EXIT_USAGE;
    cli_session s;
    /* the state module under ptrace too: its samples give the stacks, but only the published
     * waits name a blocked rank's peer and tag (issue 29; the function alone gives a direction) */
    job_session_add_env(MG_ENV_STATE_WAITS, "1");
    rc = o.attach ? cli_session_attach(&s, "hang", o.attach)
                  : cli_session_start(&s, "hang", "state", args.command, args.ncommand);
    if (rc)
        return rc;
    if (o.attach && !s.job.token[0] && o.sampler != SAMPLER_PTRACE) {
        if (o.sampler == SAMPLER_SHM)
            mg_log_warn(
                "hang: the job was not started under mpiguard: no published state, using ptrace");
        o.sampler = SAMPLER_PTRACE;
    }
    p.kind = o.sampler == SAMPLER_PTRACE ? RANK_PROBE_PTRACE : RANK_PROBE_SHM;
    job_set_signal_hook(rank_probe_abort_all);
    hang_watcher_seen seen = {.dead_rank = -1};
    int status = watch(&s, &o, &p, &seen);
    /* a job that ended after a rank's death with status 0 must not read as clean */
    if (!status && seen.dead_rank >= 0 && job_exit_status(s.job.process) == 0)
        status = MG_EXIT_FINDINGS;
    if (!status)
        say_no_hang(&s, &seen);
    /* a rank unread since its agent was lost could have hung: the run is not clean */
    if (!status && seen.lost > 0)
        status = MG_EXIT_UNOBSERVED;
    return cli_session_finish(&s, status);
}
