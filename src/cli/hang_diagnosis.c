/* Verification, diagnosis and the hang finding (hang_diagnosis.h). */
#include "hang_diagnosis.h"
#include "hang_remote.h"

#include "mg_clock.h"
#include "mg_error.h"
#include "mg_log.h"
#include "mg_ranks.h"
#include "rank_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Frames shown per rank in the report, and depth of the prefix tree. */
enum { STACK_FRAMES_KEPT = 24, TREE_MAX_NODES = 512 };

/* A verification gap lasts until every live rank has had the gap's length for itself, however long
 * that takes by the clock, but at most this many gap lengths (hang_diag_retake_after). One longer
 * than VERIFY_STRETCH_SAID gap lengths is said on stderr: the user learns the node is starved. */
static const double VERIFY_MAX_STRETCH = 10, VERIFY_STRETCH_SAID = 1.5;

static void warn_once(hang_probes *p, int r, int rc)
{
    if (p->warned && !p->warned[r]) {
        p->warned[r] = 1;
        mg_warn("hang: rank %d (pid %d) cannot be sampled: %s; the model counts it as active", r,
                p->session->ranks[r].pid, mg_strerror(rc));
    }
}

static mg_probe_kind kind_of(const hang_probes *p, int r)
{
    return p->by_ptrace && p->by_ptrace[r] ? MG_PROBE_PTRACE : p->kind;
}

int hang_probes_use_ptrace(hang_probes *p, int r)
{
    if (!p->by_ptrace && !(p->by_ptrace = calloc((size_t)p->session->nranks, 1)))
        return MG_ENOMEM;
    p->by_ptrace[r] = 1;
    mg_rank_probe_close(p->probe[r]);
    p->probe[r] = NULL;
    return MG_OK;
}

int hang_probes_read(hang_probes *p, int r, int with_cpu_time, mg_probe_reading *out)
{
    cli_session *s = p->session;
    int rc;
    if (p->remote) {
        int unseen = 0;
        rc = hang_remote_read(p->remote, r, with_cpu_time, out, &unseen);
        if (rc == MG_OK && !unseen) {
            p->readings++;
            return 0;
        }
        warn_once(p, r, rc ? rc : MG_EPERM);
        *out = mg_probe_reading_unknown();
        return 1;
    }
    rc = mg_rank_probe_read_opening(kind_of(p, r), s->token, r, s->ranks[r].pid, &p->probe[r],
                                    with_cpu_time, out);
    if (rc == MG_OK) {
        p->readings++;
        p->held_ns += out->held_ns;
        p->frozen_ns += out->frozen_ns;
        return 0;
    }
    warn_once(p, r, rc);
    *out = mg_probe_reading_unknown();
    return 1;
}

void hang_probes_stack(hang_probes *p, int r, rank_stack *out)
{
    memset(out, 0, sizeof *out);
    if (p->remote) {
        hang_remote_stack(p->remote, r, out);
        return;
    }
    if (!p->probe[r]) {
        cli_session *s = p->session;
        if (mg_rank_probe_open(kind_of(p, r), s->token, r, s->ranks[r].pid, &p->probe[r]) != 0)
            return;
    }
    mg_rank_probe_stack(p->probe[r], out);
}

void hang_probes_close(hang_probes *p)
{
    for (int r = 0; p->probe && r < p->session->nranks; r++)
        mg_rank_probe_close(p->probe[r]);
    free(p->probe);
    free(p->warned);
    free(p->by_ptrace);
    p->probe = NULL;
    p->warned = NULL;
    p->by_ptrace = NULL;
}

/* Rank r's share of a CPU on its node: what its agent said, or here this node's for every rank. */
static double cpu_share_of(hang_probes *p, int r)
{
    if (p->remote)
        return hang_remote_cpu_share(p->remote, r);
    if (!p->cpu_share)
        p->cpu_share = mg_rank_scan_cpu_share((size_t)p->session->nranks);
    return p->cpu_share;
}

/* Reads every rank into scan (for the diagnosis) and readings, with_cpu_time for the time each
 * had. */
static void take_scan(hang_probes *p, int with_cpu_time, struct hang_diag_rank *scan,
                      mg_probe_reading *readings)
{
    for (int r = 0; r < p->session->nranks; r++) {
        mg_probe_reading *reading = &readings[r];
        int unseen = hang_probes_read(p, r, with_cpu_time, reading);
        reading->exited = reading->exited || unseen;
        scan[r] = (struct hang_diag_rank){
            .out_mpi = !reading->in_mpi && !reading->exited,
            .exited = reading->exited,
            .counter_known = reading->counter_known,
            .stopped = reading->stopped,
            .func = reading->fn == MG_FN_NONE ? -1 : (int)reading->fn,
            .counter = reading->counter,
        };
    }
}

bool hang_probes_job_stopped(hang_probes *p)
{
    int n = p->session->nranks;
    struct hang_diag_rank *scan = calloc((size_t)n, sizeof *scan);
    mg_probe_reading *readings = calloc((size_t)n, sizeof *readings);
    bool stopped = false;
    if (scan && readings) {
        take_scan(p, 0, scan, readings);
        stopped = hang_diag_job_stopped(scan, (size_t)n);
    }
    free(scan);
    free(readings);
    return stopped;
}

/* What each rank did with the CPU between two scans' readings. */
static void cpu_between(hang_probes *p, const mg_probe_reading *before,
                        const mg_probe_reading *after, struct hang_diag_cpu *cpu)
{
    for (int r = 0; r < p->session->nranks; r++) {
        const mg_probe_reading *a = &before[r], *b = &after[r];
        int known = a->cpu_time_ns >= 0 && b->cpu_time_ns >= 0 && a->cpu_slices >= 0 &&
                    b->cpu_slices >= 0;
        cpu[r] = (struct hang_diag_cpu){
            .alive = !a->exited && !b->exited,
            .runnable = a->runnable && b->runnable,
            .ran_s = known ? 1e-9 * (double)(b->cpu_time_ns - a->cpu_time_ns) : -1,
            .slices = known ? (double)(b->cpu_slices - a->cpu_slices) : -1,
            .share = cpu_share_of(p, r),
        };
    }
}

int hang_verify(hang_probes *p, int nscans, double gap, struct hang_diag_result *result,
                int *faulty, struct hang_diag_rank *last, int *starved_rank)
{
    int n = p->session->nranks;
    struct hang_diag_rank *scans = calloc((size_t)nscans * (size_t)n, sizeof *scans);
    mg_probe_reading *before = calloc((size_t)n, sizeof *before);
    mg_probe_reading *after = calloc((size_t)n, sizeof *after);
    struct hang_diag_cpu *cpu = calloc((size_t)n, sizeof *cpu);
    *starved_rank = -1;
    if (!scans || !before || !after || !cpu) {
        /* no verdict without evidence: a hang is never reported unverified */
        mg_error("hang: out of memory for the verification scans; watching on");
        *result = (struct hang_diag_result){.kind = HANG_DIAG_PROGRESS, .progress_rank = -1};
        free(scans);
        free(before);
        free(after);
        free(cpu);
        return 0;
    }
    static bool polling[MG_FN_COUNT];
    for (unsigned f = 0; f < MG_FN_COUNT; f++)
        polling[f] = mg_fn_class_of(f) == MG_CLASS_POLL;
    take_scan(p, 1, scans, before);
    double before_at = mg_clock_seconds();
    int ended = 0;
    for (int k = 1; k < nscans && !ended; k++) {
        struct hang_diag_rank *scan = &scans[(size_t)k * (size_t)n];
        double wait = gap, after_at = before_at, own = 0;
        size_t who = SIZE_MAX;
        while (wait > 0 && !(ended = cli_session_wait(p->session, (int)(wait * 1000)))) {
            after_at = mg_clock_seconds();
            take_scan(p, 1, scan, after);
            cpu_between(p, before, after, cpu);
            own = hang_diag_least_own_time(cpu, (size_t)n, after_at - before_at, &who);
            wait = hang_diag_retake_after(gap, after_at - before_at, own, VERIFY_MAX_STRETCH);
        }
        if (ended)
            break;
        if (after_at - before_at > VERIFY_STRETCH_SAID * gap)
            mg_info("hang: verification scan %d came %.1f s after the one before, not %.1f s: rank "
                    "%zu was kept from running (the node is busy with other work, or a CPU quota)",
                    k + 1, after_at - before_at, gap, who);
        if (own < gap && who != SIZE_MAX)
            *starved_rank = (int)who;
        mg_probe_reading *swap = before;
        before = after;
        after = swap;
        before_at = after_at;
    }
    if (!ended) {
        struct hang_diag_input in = {.nranks = (size_t)n, .nscans = (size_t)nscans, .scans = scans,
                                     .polling = polling, .npolling = MG_FN_COUNT,
                                     .starved = *starved_rank >= 0};
        hang_diag_classify(&in, faulty, (size_t)n, result);
        memcpy(last, &scans[(size_t)(nscans - 1) * (size_t)n], (size_t)n * sizeof *last);
    }
    free(scans);
    free(before);
    free(after);
    free(cpu);
    return ended;
}

/* The innermost frame of the application itself (its executable), else the innermost named frame. */
static const char *user_function(const rank_stack *st, const char *app_path)
{
    const char *app = strrchr(app_path, '/');
    app = app ? app + 1 : app_path;
    const char *named = NULL;
    for (size_t i = 0; i < st->nframes; i++) {
        const rank_stack_frame *f = &st->frames[i];
        if (!f->function[0])
            continue;
        if (strcmp(f->module, app) == 0)
            return f->function;
        if (!named)
            named = f->function;
    }
    return named;
}

typedef struct tree_node {
    char name[RANK_STACK_NAME];
    int parent, count;
} tree_node;

/* Adds one stack (outermost first, cut below the MPI entry) to the prefix tree. */
static void tree_add(tree_node *nodes, int *nnodes, const rank_stack *st)
{
    int parent = -1;
    size_t innermost = 0;
    const char *mpi = st->mpi_function + (st->mpi_function[0] == 'P');
    for (size_t i = 0; st->mpi_function[0] && i < st->nframes; i++)
        if (strstr(st->frames[i].function, mpi))
            innermost = i;
    for (size_t i = st->nframes; i-- > innermost;) {
        const char *name = st->frames[i].function[0] ? st->frames[i].function : "??";
        int found = -1;
        for (int k = 0; k < *nnodes && found < 0; k++)
            if (nodes[k].parent == parent && strcmp(nodes[k].name, name) == 0)
                found = k;
        if (found < 0) {
            if (*nnodes == TREE_MAX_NODES)
                return;
            found = (*nnodes)++;
            nodes[found] = (tree_node){.parent = parent};
            snprintf(nodes[found].name, sizeof nodes[found].name, "%s", name);
        }
        nodes[found].count++;
        parent = found;
    }
}

static json_object *stack_json(const rank_stack *st)
{
    json_object *frames = json_object_new_array();
    for (size_t i = 0; i < st->nframes && i < STACK_FRAMES_KEPT; i++) {
        const rank_stack_frame *f = &st->frames[i];
        char text[2 * RANK_STACK_NAME + 32];
        snprintf(text, sizeof text, "%s+0x%llx (%s)", f->function[0] ? f->function : "??",
                 (unsigned long long)f->offset, f->module[0] ? f->module : "?");
        json_object_array_add(frames, json_object_new_string(text));
    }
    return frames;
}

typedef struct rank_view {
    int state; /* 0 in MPI, 1 computing, 2 exited, 3 sleeping, 4 stopped */
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
        static const char *const verbs[] = {"wait%s in %s", "%s computing in %s()", "%s exited",
                                            "%s sleeping in %s()", "%s stopped in %s()"};
        char verb[300];
        snprintf(verb, sizeof verb, verbs[views[r].state],
                 views[r].state == 0 ? (k == 1 ? "s" : "") : (k == 1 ? "is" : "are"), views[r].what);
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

static int is_faulty(const struct hang_diag_result *result, const int *faulty, int r)
{
    for (size_t i = 0; i < result->nfaulty; i++)
        if (faulty[i] == r)
            return 1;
    return 0;
}

void hang_report(hang_probes *p, const struct hang_diag_result *result, const int *faulty,
                 const struct hang_diag_rank *last, double detection_time, json_object *model)
{
    cli_session *s = p->session;
    int n = s->nranks;
    rank_view *views = calloc((size_t)n, sizeof *views);
    rank_stack *st = malloc(sizeof *st);
    tree_node *nodes = calloc(TREE_MAX_NODES, sizeof *nodes);
    json_object *per_rank = json_object_new_array();
    int nnodes = 0;
    int computation = result->kind == HANG_DIAG_COMPUTATION;
    for (int r = 0; views && st && nodes && r < n; r++) {
        const struct hang_diag_rank *seen = &last[r];
        memset(st, 0, sizeof *st);
        if (!seen->exited)
            hang_probes_stack(p, r, st);
        const char *mpi_fn = seen->func >= 0 ? mg_fn_name((mg_fn)seen->func)
                             : st->mpi_function[0] ? st->mpi_function
                                                   : "MPI";
        /* A rank polling MPI_Test or MPI_Iprobe is outside MPI between two calls, where a single
         * reading can catch it; unless the scans found it outside MPI every time (faulty), it
         * waits in that function. */
        int polls = !seen->exited && seen->out_mpi && seen->func >= 0 &&
                    mg_fn_class_of((mg_fn)seen->func) == MG_CLASS_POLL &&
                    !is_faulty(result, faulty, r);
        views[r].state = seen->exited                ? 2
                         : !seen->out_mpi || polls ? 0
                                                   : outside_state(s->ranks[r].pid);
        const char *user = user_function(st, s->launcher.app_path);
        views[r].what = views[r].state == 0 ? mpi_fn : user ? user : "?";
        views[r].what = strdup(views[r].what);
        if (st->nframes)
            tree_add(nodes, &nnodes, st);
        json_object *entry = json_object_new_object();
        json_object_object_add(entry, "rank", json_object_new_int(r));
        json_object_object_add(entry, "pid", json_object_new_int(s->ranks[r].pid));
        json_object_object_add(entry, "state", json_object_new_string(
            views[r].state == 0 ? "IN_MPI" : views[r].state == 2 ? "EXITED" : "OUT_MPI"));
        json_object_object_add(entry, "function", json_object_new_string(views[r].what));
        json_object_object_add(entry, "stack", stack_json(st));
        json_object_array_add(per_rank, entry);
    }
    char summary[1024], calls[900];
    roll_call(views, n, NULL, calls, sizeof calls);
    snprintf(summary, sizeof summary, "%s hang after %.1f s: %s",
             computation ? "computation" : "communication", detection_time, calls);
    mg_finding *f = mg_report_add_finding(s->report, "hang", "error", summary);
    json_object *ev = mg_finding_evidence(f);
    json_object *faulty_json = json_object_new_array();
    for (size_t i = 0; i < result->nfaulty && i < (size_t)n; i++) {
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
    json_object_object_add(ev, "hang_type",
                           json_object_new_string(computation ? "computation" : "communication"));
    json_object_object_add(ev, "faulty_ranks", faulty_json);
    json_object_object_add(ev, "detection_time_s", json_object_new_double(detection_time));
    /* The wall-clock moment, for matching the verdict with the job's own logs: detection_time_s
     * counts from when watching began, which is after the launch and the ranks' discovery. */
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    json_object_object_add(ev, "detected_at_unix",
                           json_object_new_double((double)now.tv_sec + 1e-9 * (double)now.tv_nsec));
    json_object_object_add(ev, "sampler", json_object_new_string(p->kind == MG_PROBE_SHM ? "shm" : "ptrace"));
    json_object_object_add(ev, "model", model);
    json_object_object_add(ev, "per_rank", per_rank);
    for (int k = 0; k < nnodes; k++) {
        char id[16], label[300];
        snprintf(id, sizeof id, "n%d", k);
        snprintf(label, sizeof label, "%s (%d)", nodes[k].name, nodes[k].count);
        mg_finding_add_graph_node(f, id, label, "box");
        if (nodes[k].parent >= 0) {
            char parent[16];
            snprintf(parent, sizeof parent, "n%d", nodes[k].parent);
            mg_finding_add_graph_edge(f, parent, id, "solid");
        }
    }
    if (computation && result->nfaulty > 0) {
        char suggestion[512];
        snprintf(suggestion, sizeof suggestion,
                 "rank %d never returns to MPI from %s(): look at what it waits for or loops on",
                 faulty[0], views[faulty[0]].what);
        mg_finding_set_suggestion(f, suggestion);
    } else {
        mg_finding_set_suggestion(f, "every rank waits inside MPI: look for a message that is never "
                                     "sent or a collective some rank does not call "
                                     "(mpiguard check finds these)");
    }
    mg_finding_print_banner(f, stderr);
    roll_call(views, n, stderr, calls, sizeof calls);
    for (int r = 0; views && r < n; r++)
        free((char *)views[r].what);
    free(views);
    free(st);
    free(nodes);
}
