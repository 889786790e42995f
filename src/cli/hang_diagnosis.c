/* Verification, diagnosis and the hang finding (hang_diagnosis.h). */
#include "hang_diagnosis.h"

#include "mg_log.h"
#include "mg_ranks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Frames shown per rank in the report, and depth of the prefix tree. */
enum { STACK_FRAMES_KEPT = 24, TREE_MAX_NODES = 512 };

void hang_probes_read(hang_probes *p, int r, mg_probe_reading *out)
{
    cli_session *s = p->session;
    if (!p->probe[r] && mg_rank_probe_open(p->kind, s->token, r, s->ranks[r].pid, &p->probe[r])) {
        *out = (mg_probe_reading){.in_mpi = 1, .fn = MG_FN_Init};
        return;
    }
    if (mg_rank_probe_read(p->probe[r], out) != 0)
        *out = (mg_probe_reading){.exited = 0, .in_mpi = 1, .fn = MG_FN_NONE};
}

void hang_probes_close(hang_probes *p)
{
    for (int r = 0; r < p->session->nranks; r++)
        mg_rank_probe_close(p->probe[r]);
    free(p->probe);
    p->probe = NULL;
}

int hang_verify(hang_probes *p, int nscans, double gap, struct hang_diag_result *result, int *faulty)
{
    int n = p->session->nranks;
    struct hang_diag_rank *scans = calloc((size_t)nscans * (size_t)n, sizeof *scans);
    static bool polling[MG_FN_COUNT];
    for (unsigned f = 0; f < MG_FN_COUNT; f++)
        polling[f] = mg_fn_class_of(f) == MG_CLASS_POLL;
    int ended = 0;
    for (int k = 0; k < nscans && !ended; k++) {
        if (k > 0)
            ended = cli_session_wait(p->session, (int)(gap * 1000));
        for (int r = 0; r < n; r++) {
            mg_probe_reading reading;
            hang_probes_read(p, r, &reading);
            scans[(size_t)k * (size_t)n + (size_t)r] = (struct hang_diag_rank){
                .out_mpi = !reading.in_mpi && !reading.exited,
                .exited = reading.exited,
                .counter_known = reading.counter_known,
                .func = reading.fn == MG_FN_NONE ? -1 : (int)reading.fn,
                .counter = reading.counter,
            };
        }
    }
    if (!ended) {
        struct hang_diag_input in = {.nranks = (size_t)n, .nscans = (size_t)nscans, .scans = scans,
                                     .polling = polling, .npolling = MG_FN_COUNT};
        hang_diag_classify(&in, faulty, (size_t)n, result);
    }
    free(scans);
    return ended;
}

/* The innermost frame of the application itself (its executable), else the innermost named frame. */
static const char *user_function(const sampler_sample *sample, const char *app_path)
{
    if (!sample || sample->nthreads == 0)
        return NULL;
    const sampler_thread *t = &sample->threads[0];
    const char *named = NULL;
    for (size_t i = 0; i < t->nframes; i++) {
        const stack_frame *f = &t->frames[i];
        if (!f->function)
            continue;
        if (f->module && strcmp(f->module, app_path) == 0)
            return f->function;
        if (!named)
            named = f->function;
    }
    return named;
}

/* The thread whose stack tells the story: the first in an MPI call, else the main thread. */
static const sampler_thread *telling_thread(const sampler_sample *sample)
{
    if (!sample || sample->nthreads == 0)
        return NULL;
    for (size_t i = 0; i < sample->nthreads; i++)
        if (sample->threads[i].mpi_function)
            return &sample->threads[i];
    return &sample->threads[0];
}

typedef struct tree_node {
    const char *name;
    int parent, count;
} tree_node;

/* Adds one stack (outermost first, cut below the MPI entry) to the prefix tree. */
static void tree_add(tree_node *nodes, int *nnodes, const sampler_thread *t)
{
    int parent = -1;
    size_t first = t->nframes;
    for (size_t i = 0; i < t->nframes; i++)
        if (t->mpi_function && t->frames[i].function &&
            strstr(t->frames[i].function, t->mpi_function + (t->mpi_function[0] == 'P')))
            first = i;
    size_t innermost = first < t->nframes ? first : 0;
    for (size_t i = t->nframes; i-- > innermost;) {
        const char *name = t->frames[i].function ? t->frames[i].function : "??";
        int found = -1;
        for (int k = 0; k < *nnodes && found < 0; k++)
            if (nodes[k].parent == parent && strcmp(nodes[k].name, name) == 0)
                found = k;
        if (found < 0) {
            if (*nnodes == TREE_MAX_NODES)
                return;
            found = (*nnodes)++;
            nodes[found] = (tree_node){.name = name, .parent = parent};
        }
        nodes[found].count++;
        parent = found;
    }
}

static json_object *stack_json(const sampler_thread *t)
{
    json_object *frames = json_object_new_array();
    for (size_t i = 0; t && i < t->nframes && i < STACK_FRAMES_KEPT; i++) {
        const stack_frame *f = &t->frames[i];
        char text[512];
        const char *module = f->module ? strrchr(f->module, '/') : NULL;
        snprintf(text, sizeof text, "%s+0x%llx (%s)", f->function ? f->function : "??",
                 (unsigned long long)f->offset, module ? module + 1 : "?");
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
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return 2;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *paren = strrchr(buf, ')');
    char letter = paren && paren[1] ? paren[2] : 'R';
    return letter == 'S' || letter == 'D' ? 3 : letter == 'T' || letter == 't' ? 4 : 1;
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

void hang_report(hang_probes *p, const struct hang_diag_result *result, const int *faulty,
                 double detection_time, json_object *model)
{
    cli_session *s = p->session;
    int n = s->nranks;
    rank_view *views = calloc((size_t)n, sizeof *views);
    const sampler_sample **samples = calloc((size_t)n, sizeof *samples);
    tree_node *nodes = calloc(TREE_MAX_NODES, sizeof *nodes);
    json_object *per_rank = json_object_new_array();
    int nnodes = 0;
    int computation = result->kind == HANG_DIAG_COMPUTATION;
    /* Stacks are taken rank by rank; each sample is copied into the report before the next. */
    for (int r = 0; views && samples && nodes && r < n; r++) {
        mg_probe_reading reading;
        hang_probes_read(p, r, &reading);
        const sampler_sample *sample = NULL;
        if (!reading.exited && p->probe[r] && mg_rank_probe_stacks(p->probe[r], &sample) != 0)
            sample = NULL;
        const sampler_thread *t = telling_thread(sample);
        const char *mpi_fn = reading.fn != MG_FN_NONE ? mg_fn_name(reading.fn)
                             : t && t->mpi_function ? t->mpi_function
                                                     : "MPI";
        views[r].state = reading.exited ? 2 : reading.in_mpi ? 0 : outside_state(s->ranks[r].pid);
        const char *user = user_function(sample, s->launcher.app_path);
        views[r].what = views[r].state == 0 ? mpi_fn : user ? user : "?";
        views[r].what = strdup(views[r].what);
        if (t)
            tree_add(nodes, &nnodes, t);
        json_object *entry = json_object_new_object();
        json_object_object_add(entry, "rank", json_object_new_int(r));
        json_object_object_add(entry, "pid", json_object_new_int(s->ranks[r].pid));
        json_object_object_add(entry, "state", json_object_new_string(
            views[r].state == 0 ? "IN_MPI" : views[r].state == 2 ? "EXITED" : "OUT_MPI"));
        json_object_object_add(entry, "function", json_object_new_string(views[r].what));
        json_object_object_add(entry, "stack", stack_json(t));
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
    free(samples);
    free(nodes);
}
