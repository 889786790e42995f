/* Verification, diagnosis and the hang finding (hang_diagnosis.h). */
#include "hang_diagnosis.h"
#include "hang_evidence.h"
#include "hang_remote.h"
#include "hang_stack_tree.h"

#include "mg_error.h"
#include "mg_log.h"
#include "mg_ranks.h"
#include "rank_scan.h"
#include "rank_state.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

/* Frames shown per rank in the report. */
enum { STACK_FRAMES_KEPT = 24 };

/* The innermost frame of the application itself (its executable), as its name or, stripped, as
 * "app+0x1189"; else the innermost named frame; NULL when none. */
static const char *user_function(const rank_stack *st, const char *app_path, char *buf, size_t len)
{
    const char *app = strrchr(app_path, '/');
    app = app ? app + 1 : app_path;
    const char *named = NULL;
    for (size_t i = 0; i < st->nframes; i++) {
        const rank_stack_frame *f = &st->frames[i];
        if (strcmp(f->module, app) == 0) {
            if (f->function[0])
                return f->function;
            snprintf(buf, len, "%s+0x%llx", f->module, (unsigned long long)f->offset);
            return buf;
        }
        if (!named && f->function[0])
            named = f->function;
    }
    return named;
}

static json_object *stack_json(const rank_stack *st)
{
    json_object *frames = json_object_new_array();
    for (size_t i = 0; i < st->nframes && i < STACK_FRAMES_KEPT; i++) {
        const rank_stack_frame *f = &st->frames[i];
        char text[2 * RANK_STACK_NAME + RANK_STACK_FILE + 48];
        int len = snprintf(text, sizeof text, "%s+0x%llx (%s)", f->function[0] ? f->function : "??",
                           (unsigned long long)f->offset, f->module[0] ? f->module : "?");
        if (f->file[0] && len > 0 && (size_t)len < sizeof text)
            snprintf(text + len, sizeof text - (size_t)len, " at %s:%d", f->file, f->line);
        json_object_array_add(frames, json_object_new_string(text));
    }
    return frames;
}

typedef struct rank_view {
    int state; /* 0 in MPI, 1 computing, 2 exited, 3 sleeping, 4 stopped, 5 its agent lost,
                  6 alive but unreadable */
    const char *what;
} rank_view;

/* Outside MPI, /proc tells what the rank does: running, sleeping or stopped (a frozen node). */
static int outside_state(int pid)
{
    char letter = mg_rank_scan_process_state(pid);
    return mg_process_state_gone(letter)       ? 2
           : mg_process_state_sleeping(letter) ? 3
           : mg_process_state_stopped(letter)  ? 4
                                               : 1;
}

/* Prints "ranks 0-2,4 wait in MPI_Allreduce" lines: one per distinct (state, function). */
static void roll_call(const rank_view *views, int n, FILE *out, char *first_line, size_t first_len)
{
    int *group = malloc((size_t)n * sizeof *group);
    char *done = calloc((size_t)n, 1);
    first_line[0] = '\0';
    for (int r = 0; group && done && r < n; r++) {
        if (done[r])
            continue;
        int k = 0;
        for (int q = r; q < n; q++)
            if (!done[q] && views[q].state == views[r].state &&
                strcmp(views[q].what, views[r].what) == 0) {
                group[k++] = q;
                done[q] = 1;
            }
        char ranks[256], line[600];
        mg_ranks_format(group, (size_t)k, ranks, sizeof ranks);
        static const char *const verbs[] = {
            "wait%s in %s",       "%s computing in %s()",
            "%s exited",          "%s sleeping in %s()",
            "%s stopped in %s()", "%s not observed: its node's agent stopped answering",
            "%s alive but could not be read (its last reading was refused or timed out)"};
        char verb[300];
        const char *agreement = views[r].state == 0   ? (k == 1 ? "s" : "")
                                : views[r].state == 2 ? (k == 1 ? "has" : "have")
                                                      : (k == 1 ? "is" : "are");
        snprintf(verb, sizeof verb, verbs[views[r].state], agreement, views[r].what);
        snprintf(line, sizeof line, "rank%s %s %s", k == 1 ? "" : "s", ranks, verb);
        if (out)
            fprintf(out, "mpiguard: hang: %s\n", line);
        size_t used = strlen(first_line);
        if (used < first_len)
            snprintf(first_line + used, first_len - used, "%s%s", used ? "; " : "", line);
    }
    free(group);
    free(done);
}

/* The verdict's time: from when watching began (detection_time_s), and the wall-clock moment for
 * matching it with the job's own logs, since watching begins after the launch and the ranks'
 * discovery. */
static void add_detection_time(json_object *ev, double detection_time)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    json_object_object_add(ev, "detection_time_s", json_object_new_double(detection_time));
    json_object_object_add(ev, "detected_at_unix",
                           json_object_new_double((double)now.tv_sec + 1e-9 * (double)now.tv_nsec));
}

static bool is_named(const int *ranks, size_t n, int r)
{
    for (size_t i = 0; i < n; i++)
        if (ranks[i] == r)
            return true;
    return false;
}

static int is_faulty(const struct hang_diag_result *result, const int *faulty, int r)
{
    return is_named(faulty, result->nfaulty, r);
}

/* What the report says of rank r, as the last scan saw it (seen): its view for the roll-call, its
 * stack in st (sampled now unless it exited or its agent is lost), its facts for the culprit's
 * search, and its entry of "per_rank". */
static void describe_rank(hang_probes *p, const struct hang_diag_result *result, const int *faulty,
                          int r, const struct hang_diag_rank *seen, rank_stack *st, rank_view *view,
                          struct hang_culprit_rank *fact, json_object *entry)
{
    const job_session *js = p->job;
    int lost = p->remote && hang_remote_lost(p->remote, r);
    /* read as starting by shm, which has no probe of it: its stack tells in or before MPI_Init */
    bool unpublished = !p->remote && hang_probes_kind(p, r) == MG_PROBE_SHM && !p->probe[r];
    memset(st, 0, sizeof *st);
    bool absent = hang_diag_rank_absent(seen);
    if (!seen->exited && !lost)
        hang_probes_stack(p, r, st);
    bool before_init = unpublished && st->nframes > 0 && !st->mpi_function[0];
    const char *mpi_fn = seen->func >= 0       ? mg_fn_name((mg_fn)seen->func)
                         : st->mpi_function[0] ? st->mpi_function
                                               : "MPI";
    /* A rank polling MPI_Test or MPI_Iprobe is outside MPI between two calls, where a single
     * reading can catch it; unless the scans found it outside MPI every time (faulty), it
     * waits in that function. */
    int polls = !absent && seen->out_mpi && seen->func >= 0 &&
                mg_fn_class_of((mg_fn)seen->func) == MG_CLASS_POLL && !is_faulty(result, faulty, r);
    bool in_mpi = !absent && (!seen->out_mpi || polls) && !before_init;
    /* the culprit of a communication hang: stopped, or spinning, inside MPI */
    bool culprit = in_mpi && is_faulty(result, faulty, r);
    /* A rank on another node is known by what its agent said: this node's /proc is not its. */
    view->state = lost                                        ? 5
                  : seen->exited                              ? 2
                  : seen->unreadable                          ? 6
                  : culprit                                   ? (seen->stopped ? 4 : 1)
                  : in_mpi                                    ? 0
                  : p->remote && !hang_remote_here(p->remote) ? (seen->stopped ? 4 : 1)
                                                              : outside_state(js->ranks[r].pid);
    char stripped[RANK_STACK_NAME + 32];
    const char *user = user_function(st, js->launcher.app_path, stripped, sizeof stripped);
    view->what = strdup(in_mpi ? mpi_fn : user ? user : "?");
    json_object_object_add(entry, "rank", json_object_new_int(r));
    json_object_object_add(entry, "pid", json_object_new_int(js->ranks[r].pid));
    if (js->ranks[r].host[0])
        json_object_object_add(entry, "host", json_object_new_string(js->ranks[r].host));
    json_object_object_add(entry, "state",
                           json_object_new_string(lost               ? "UNKNOWN"
                                                  : seen->unreadable ? "UNREADABLE"
                                                  : in_mpi           ? "IN_MPI"
                                                  : seen->exited     ? "EXITED"
                                                                     : "OUT_MPI"));
    json_object_object_add(entry, "function", json_object_new_string(view->what));
    json_object_object_add(entry, "stack", stack_json(st));
    struct hang_facts_seen by_watch = {.live = !seen->exited,
                                       .in_mpi = in_mpi,
                                       .stopped = is_faulty(result, faulty, r) && seen->stopped,
                                       .spun = culprit && !seen->stopped};
    hang_evidence_rank(js, r, &by_watch, st, fact, entry);
}

/* Adds the finding's ranks with their calls: the faulty ones, and in a communication hang every
 * rank waiting in MPI; returns the "faulty_ranks" array. */
static json_object *add_ranks(mg_finding *f, bool computation, const int *faulty, size_t nfaulty,
                              const rank_view *views, int n)
{
    json_object *faulty_json = json_object_new_array();
    for (size_t i = 0; i < nfaulty; i++) {
        mg_finding_add_rank(f, faulty[i]);
        json_object_array_add(faulty_json, json_object_new_int(faulty[i]));
        mg_finding_add_site(f, faulty[i], views[faulty[i]].what, NULL, 0);
    }
    if (!computation)
        for (int r = 0; r < n; r++)
            if (views[r].state == 0) {
                mg_finding_add_rank(f, r);
                mg_finding_add_site(f, r, views[r].what, NULL, 0);
            }
    return faulty_json;
}

/* The finding's suggestion: what the faulty rank (faulty[0], if any) does, by the hang's type. */
static void suggest(mg_finding *f, bool computation, const int *faulty, size_t nfaulty,
                    const rank_view *views, const struct hang_culprit_rank *facts)
{
    char suggestion[512];
    if (computation && nfaulty > 0) {
        snprintf(suggestion, sizeof suggestion,
                 "rank %d never returns to MPI from %s(): look at what it waits for or loops on",
                 faulty[0], views[faulty[0]].what);
    } else if (nfaulty > 0) {
        const struct hang_culprit_rank *held_by = facts ? &facts[faulty[0]] : NULL;
        snprintf(suggestion, sizeof suggestion,
                 views[faulty[0]].state == 4
                     ? "rank %d holds the others: it is stopped inside %s (SIGSTOP, a debugger, a "
                       "frozen node)"
                 : !held_by || held_by->spun || held_by->in_handler
                     ? "rank %d holds the others: it spins inside %s while they wait (a signal "
                       "handler or callback that never returns)"
                     : "rank %d holds the others: they wait on it, and it waits in %s for what "
                       "never comes (a message never sent, a collective others do not call)",
                 faulty[0], views[faulty[0]].what);
    } else {
        snprintf(suggestion, sizeof suggestion,
                 "every rank waits inside MPI: look for a message that is never sent or a "
                 "collective some rank does not call (mpiguard check finds these)");
    }
    mg_finding_set_suggestion(f, suggestion);
}

/* What the report of a hang is made of: each rank's view, facts, stack and entry; the faulty
 * ranks, as the watch named them and then as the culprit search ranks them. */
typedef struct hang_account {
    int n;
    rank_view *views;
    struct hang_culprit_rank *facts;
    hang_stack_tree *tree;
    json_object *per_rank;
    bool computation;
    const int *faulty;
    size_t nfaulty;
    int *named; /* the search's culprits, n of room */
    size_t nnamed;
    json_object *culprit;
    char chain[1024];
} hang_account;

/* Describes every rank as the last scan saw it, with its stack. False when out of memory. */
static bool account_ranks(hang_probes *p, const struct hang_diag_result *result, const int *faulty,
                          const struct hang_diag_rank *last, hang_account *a)
{
    int n = a->n;
    a->views = calloc((size_t)n, sizeof *a->views);
    a->facts = calloc((size_t)n, sizeof *a->facts);
    a->named = calloc((size_t)n, sizeof *a->named);
    a->per_rank = json_object_new_array();
    (void)hang_stack_tree_create(&a->tree);
    rank_stack *st = malloc(sizeof *st);
    bool described = a->views && a->facts && a->named && a->tree && st;
    for (int r = 0; described && r < n; r++) {
        json_object *entry = json_object_new_object();
        describe_rank(p, result, faulty, r, &last[r], st, &a->views[r], &a->facts[r], entry);
        hang_stack_tree_add(a->tree, r, st);
        json_object_array_add(a->per_rank, entry);
    }
    free(st);
    a->faulty = faulty;
    a->nfaulty = result->nfaulty < (size_t)n ? result->nfaulty : (size_t)n;
    /* a faulty rank shm read as starting is outside MPI when its stack shows it before MPI_Init */
    a->computation = result->kind == HANG_DIAG_COMPUTATION ||
                     (described && a->nfaulty > 0 && !a->facts[faulty[0]].in_mpi);
    return described;
}

/* The watch names the ranks outside MPI, the stopped and the spinning; the search adds the chain
 * of evidence, and a culprit the watch could not name (frames, collective epoch, wait-for
 * relation). */
static void account_culprit(const job_session *js, hang_account *a)
{
    const char **functions = malloc((size_t)a->n * sizeof *functions);
    for (int r = 0; functions && r < a->n; r++)
        functions[r] = a->views[r].what;
    if (functions)
        a->culprit = hang_evidence_conclude(js, a->facts, functions, a->chain, sizeof a->chain,
                                            a->named, &a->nnamed);
    free(functions);
    /* in a communication hang the search's rules rank the watch's evidence (a stopped rank before
     * one that spins: the master of a master/worker job polls, and spins, while it waits) */
    if (a->computation || a->nnamed == 0)
        return;
    for (size_t i = 0; i < a->nfaulty; i++)
        if (a->views[a->faulty[i]].state == 1 && !is_named(a->named, a->nnamed, a->faulty[i]))
            a->views[a->faulty[i]].state = 0;
    a->faulty = a->named;
    a->nfaulty = a->nnamed;
    for (size_t i = 0; i < a->nnamed; i++)
        if (a->facts[a->named[i]].in_handler || a->facts[a->named[i]].spun)
            a->views[a->named[i]].state = 1;
}

/* The finding of the account, with its banner, roll-call and stack tree on stderr. */
static void add_hang_finding(cli_session *s, const hang_probes *p, hang_account *a,
                             double detection_time, json_object *model)
{
    const char *type = a->computation ? "computation" : "communication";
    char summary[2048], calls[900];
    roll_call(a->views, a->n, NULL, calls, sizeof calls);
    snprintf(summary, sizeof summary, "%s hang after %.1f s: %s%s%s", type, detection_time, calls,
             a->chain[0] ? "; culprit: " : "", a->chain);
    mg_finding *f = mg_report_add_finding(s->report, "hang", summary);
    json_object *ev = mg_finding_evidence(f);
    if (a->culprit)
        json_object_object_add(ev, "culprit", a->culprit);
    json_object_object_add(ev, "hang_type", json_object_new_string(type));
    json_object_object_add(ev, "faulty_ranks",
                           add_ranks(f, a->computation, a->faulty, a->nfaulty, a->views, a->n));
    add_detection_time(ev, detection_time);
    json_object_object_add(ev, "sampler",
                           json_object_new_string(p->kind == MG_PROBE_SHM ? "shm" : "ptrace"));
    json_object_object_add(ev, "model", model);
    json_object_object_add(ev, "per_rank", a->per_rank);
    hang_stack_tree_to_finding(a->tree, f);
    suggest(f, a->computation, a->faulty, a->nfaulty, a->views, a->facts);
    mg_finding_print_banner(f, stderr);
    roll_call(a->views, a->n, stderr, calls, sizeof calls);
    hang_stack_tree_print(a->tree, stderr);
}

void hang_report(cli_session *s, hang_probes *p, const struct hang_diag_result *result,
                 const int *faulty, const struct hang_diag_rank *last, double detection_time,
                 json_object *model)
{
    hang_account a = {.n = p->job->nranks};
    if (account_ranks(p, result, faulty, last, &a)) {
        account_culprit(p->job, &a);
        add_hang_finding(s, p, &a, detection_time, model);
    } else {
        mg_error("hang: out of memory: the hang cannot be reported");
        json_object_put(model);
        json_object_put(a.per_rank);
    }
    for (int r = 0; a.views && r < a.n; r++)
        free((char *)a.views[r].what);
    free(a.views);
    hang_stack_tree_destroy(a.tree);
    free(a.facts);
    free(a.named);
}

/* The MPI function rank r was in or last called, as its published state says; NULL unknown. */
static const char *published_function(const cli_session *s, int r)
{
    const mg_rank_state *state = s->job.ranks[r].state;
    if (!state)
        return NULL;
    unsigned fn = atomic_load_explicit(&state->current_fn, memory_order_relaxed);
    return fn < MG_FN_COUNT ? mg_fn_name(fn) : NULL;
}

int hang_dead_rank(const cli_session *s, const proc_exits *exits)
{
    int first = -1;
    uint64_t first_when = UINT64_MAX;
    for (int r = 0; r < s->job.nranks; r++) {
        int pid = s->job.ranks[r].pid, wait_status = 0;
        uint64_t when = UINT64_MAX;
        bool seen = proc_exits_status(exits, r, &wait_status, &when);
        /* /proc only where no exit is announced: a read per rank per step otherwise */
        if (!pid || !(seen || (!exits && mg_process_state_gone(mg_rank_scan_process_state(pid)))))
            continue;
        const mg_rank_state *state = s->job.ranks[r].state;
        const char *fn = published_function(s, r);
        /* finalized, or ended on purpose; without a published state only a signal says it died */
        if (state ? atomic_load_explicit(&state->finalized, memory_order_relaxed) ||
                        (fn && strcmp(fn, "MPI_Abort") == 0)
                  : !(seen && WIFSIGNALED(wait_status)))
            continue;
        if (first < 0 || when < first_when) {
            first = r;
            first_when = when;
        }
    }
    return first;
}

/* "killed by signal 9 (SIGKILL)", "exited with status 0", or why it is not known. */
static void describe_end(const proc_exits *exits, int r, char *text, size_t len, json_object *dead)
{
    int wait_status;
    uint64_t when;
    if (!proc_exits_status(exits, r, &wait_status, &when)) {
        snprintf(text, len, "%s",
                 exits ? "ended (its status was not seen)"
                       : "ended (its status is unknown: the kernel's process "
                         "events need CAP_NET_ADMIN)");
        return;
    }
    if (WIFSIGNALED(wait_status)) {
        int sig = WTERMSIG(wait_status);
        const char *abbrev = sigabbrev_np(sig);
        snprintf(text, len, "was killed by signal %d (SIG%s)", sig, abbrev ? abbrev : "?");
        json_object_object_add(dead, "signal", json_object_new_int(sig));
    } else {
        snprintf(text, len, "exited with status %d", WEXITSTATUS(wait_status));
        json_object_object_add(dead, "exit_status", json_object_new_int(WEXITSTATUS(wait_status)));
    }
}

void hang_report_dead_rank(cli_session *s, int dead_rank, const proc_exits *exits, bool job_ended,
                           double detection_time)
{
    int n = s->job.nranks;
    rank_view *views = calloc((size_t)n, sizeof *views);
    json_object *per_rank = json_object_new_array(), *dead = json_object_new_object();
    for (int r = 0; views && r < n; r++) {
        const mg_rank_state *state = s->job.ranks[r].state;
        const char *fn = published_function(s, r);
        bool in_mpi = state && atomic_load_explicit(&state->threads_in_mpi, memory_order_relaxed);
        /* the others as they were when it died: a launcher that ends them leaves that in place */
        views[r] = (rank_view){.state = r == dead_rank ? 2 : in_mpi ? 0 : 1, .what = fn ? fn : "?"};
        json_object *entry = json_object_new_object();
        json_object_object_add(entry, "rank", json_object_new_int(r));
        json_object_object_add(entry, "pid", json_object_new_int(s->job.ranks[r].pid));
        json_object_object_add(entry, "state",
                               json_object_new_string(r == dead_rank ? "EXITED"
                                                      : !state       ? "UNKNOWN"
                                                      : in_mpi       ? "IN_MPI"
                                                                     : "OUT_MPI"));
        json_object_object_add(entry, "function", fn ? json_object_new_string(fn) : NULL);
        json_object_array_add(per_rank, entry);
    }
    char end[160], calls[900] = "", summary[1400];
    describe_end(exits, dead_rank, end, sizeof end, dead);
    const char *last = published_function(s, dead_rank);
    if (views)
        roll_call(views, n, NULL, calls, sizeof calls);
    snprintf(summary, sizeof summary,
             "rank %d (pid %d) %s without calling MPI_Finalize; its last MPI call: %s; %s; %s",
             dead_rank, s->job.ranks[dead_rank].pid, end, last ? last : "unknown", calls,
             job_ended ? "the launcher then ended the job" : "the others were left waiting");
    mg_finding *f = mg_report_add_finding(s->report, "hang", summary);
    json_object *ev = mg_finding_evidence(f);
    mg_finding_add_rank(f, dead_rank);
    mg_finding_add_site(f, dead_rank, last ? last : "?", NULL, 0);
    json_object *faulty = json_object_new_array();
    json_object_array_add(faulty, json_object_new_int(dead_rank));
    json_object_object_add(dead, "rank", json_object_new_int(dead_rank));
    json_object_object_add(dead, "pid", json_object_new_int(s->job.ranks[dead_rank].pid));
    json_object_object_add(dead, "last_mpi_call", last ? json_object_new_string(last) : NULL);
    json_object_object_add(ev, "hang_type", json_object_new_string("dead-rank"));
    json_object_object_add(ev, "faulty_ranks", faulty);
    json_object_object_add(ev, "dead_rank", dead);
    json_object_object_add(ev, "launcher_ended_job", json_object_new_boolean(job_ended));
    add_detection_time(ev, detection_time);
    json_object_object_add(ev, "per_rank", per_rank);
    mg_finding_set_suggestion(f, "a rank that ends without MPI_Finalize leaves the others waiting "
                                 "for it: look at why it ended (a crash, the OOM killer, an exit "
                                 "on an error path)");
    mg_finding_print_banner(f, stderr);
    free(views);
}
