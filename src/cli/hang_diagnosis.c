/* Verification, diagnosis and the hang finding (hang_diagnosis.h). */
#include "hang_diagnosis.h"
#include "hang_account.h"
#include "hang_finding.h"
#include "hang_remote.h"
#include "hang_facts.h"
#include "hang_stack_tree.h"

#include "mg_error.h"
#include "mg_log.h"
#include "rank_scan.h"
#include "rank_state.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct hang_account_view rank_view;

/* Outside MPI, /proc tells what the rank does: running, sleeping or stopped (a frozen node). */
static enum hang_account_state outside_state(int pid)
{
    char letter = rank_scan_process_state(pid);
    return mg_process_state_gone(letter)       ? HANG_ACCOUNT_EXITED
           : mg_process_state_sleeping(letter) ? HANG_ACCOUNT_SLEEPING
           : mg_process_state_stopped(letter)  ? HANG_ACCOUNT_STOPPED
                                               : HANG_ACCOUNT_COMPUTING;
}

/* Prints the roll-call's lines (hang_account_roll_call) to out (may be NULL) and joins them with
 * "; " into first_line. */
static void roll_call(const rank_view *views, int n, FILE *out, char *first_line, size_t first_len)
{
    int *group = malloc((size_t)n * sizeof *group);
    char *done = calloc((size_t)n, 1), line[600];
    first_line[0] = '\0';
    while (group && done &&
           hang_account_roll_call(views, (size_t)n, done, group, line, sizeof line)) {
        if (out)
            fprintf(out, "mpiguard: hang: %s\n", line);
        size_t used = strlen(first_line);
        if (used < first_len)
            snprintf(first_line + used, first_len - used, "%s%s", used ? "; " : "", line);
    }
    free(group);
    free(done);
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
    bool unpublished = !p->remote && hang_probes_kind(p, r) == RANK_PROBE_SHM && !p->probe[r];
    memset(st, 0, sizeof *st);
    if (!seen->exited && !lost)
        hang_probes_stack(p, r, st);
    const char *mpi_fn = seen->func >= 0 ? mpi_function_ids_name((mpi_function_ids_fn)seen->func)
                         : st->mpi_function[0] ? st->mpi_function
                                               : "MPI";
    bool faulty_rank = hang_account_named(faulty, result->nfaulty, r);
    struct hang_account_rank judged = hang_account_judge(
        seen, faulty_rank,
        seen->func >= 0 && mpi_function_ids_class_of((mpi_function_ids_fn)seen->func) ==
                               MG_MPI_FUNCTION_IDS_CLASS_POLL,
        lost, unpublished && st->nframes > 0 && !st->mpi_function[0],
        p->remote && !hang_remote_here(p->remote));
    bool in_mpi = judged.in_mpi;
    view->state = judged.ask_process ? outside_state(js->ranks[r].pid) : judged.state;
    char stripped[RANK_STACK_NAME + 32];
    const char *user = rank_stack_user_function(st, js->launcher.app_path, stripped,
                                                sizeof stripped);
    view->what = strdup(in_mpi ? mpi_fn : user ? user : "?");
    json_object_object_add(entry, "rank", json_object_new_int(r));
    json_object_object_add(entry, "pid", json_object_new_int(js->ranks[r].pid));
    if (js->ranks[r].host[0])
        json_object_object_add(entry, "host", json_object_new_string(js->ranks[r].host));
    json_object_object_add(entry, "state", json_object_new_string(judged.label));
    json_object_object_add(entry, "function", json_object_new_string(view->what));
    json_object_object_add(entry, "stack", hang_finding_stack_json(st));
    const char *app = strrchr(js->launcher.app_path, '/');
    const rank_state *state = js->ranks[r].state;
    hang_facts_rank(&judged.watch, st, app ? app + 1 : js->launcher.app_path, state, r, fact);
    if (!seen->exited && in_mpi && state)
        json_object_object_add(entry, "waits_for",
                               hang_finding_waits_json(state, hang_facts_world_like));
}

static bool listed(const int *list, size_t n, int rank)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == rank)
            return true;
    return false;
}

/* Adds the finding's ranks with their calls: the faulty ones, and in a communication hang every
 * rank waiting in MPI; returns the "faulty_ranks" array. */
static json_object *add_ranks(report_entry *f, bool computation, const int *faulty, size_t nfaulty,
                              const rank_view *views, int n)
{
    json_object *faulty_json = json_object_new_array();
    for (size_t i = 0; i < nfaulty; i++) {
        report_finding_add_rank(f, faulty[i]);
        json_object_array_add(faulty_json, json_object_new_int(faulty[i]));
        report_finding_add_site(f, faulty[i], views[faulty[i]].what, NULL, 0);
    }
    if (!computation)
        for (int r = 0; r < n; r++)
            if (views[r].state == HANG_ACCOUNT_IN_MPI && !listed(faulty, nfaulty, r)) {
                report_finding_add_rank(f, r);
                report_finding_add_site(f, r, views[r].what, NULL, 0);
            }
    return faulty_json;
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
    enum hang_culprit_reason reason;
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
    a->computation = described && hang_account_computation(result, faulty, a->nfaulty, a->facts);
    return described;
}

/* A JSON array of the n ranks of list. */
static json_object *ranks_json(const int *list, size_t n)
{
    json_object *a = json_object_new_array();
    for (size_t i = 0; i < n; i++)
        json_object_array_add(a, json_object_new_int(list[i]));
    return a;
}

/* The watch names the ranks outside MPI, the stopped and the spinning; the search (docs/hang.md
 * "The culprit") adds the chain of evidence, and a culprit the watch could not name (frames,
 * collective epoch, wait-for relation), as the report's "culprit". */
static void account_culprit(const job_session *js, hang_account *a)
{
    size_t n = (size_t)a->n;
    struct hang_account_chain *c = calloc(1, sizeof *c);
    const char **functions = malloc(n * sizeof *functions);
    struct hang_account_wait *waits = calloc(n, sizeof *waits);
    int *lists = malloc(2 * n * sizeof *lists);
    for (size_t r = 0; functions && waits && r < n; r++) {
        const rank_state *state = js->ranks[r].state;
        functions[r] = a->views[r].what;
        waits[r].on = state ? atomic_load_explicit(&state->wait_on, memory_order_relaxed)
                            : RANK_STATE_WAIT_NOTHING;
        waits[r].tag = state ? atomic_load_explicit(&state->wait_tag, memory_order_relaxed)
                             : RANK_STATE_TAG_ANY;
    }
    if (c && functions && waits && lists) {
        *c = (struct hang_account_chain){
            .culprits = a->named, .direct = lists, .through = lists + n};
        if (hang_account_chain(a->facts, functions, waits, n, c) == MG_ERROR_OK) {
            a->nnamed = c->nculprits;
            a->reason = c->reason;
            snprintf(a->chain, sizeof a->chain, "%s", c->text);
            a->culprit = json_object_new_object();
            json_object_object_add(a->culprit, "ranks", ranks_json(c->culprits, c->nculprits));
            json_object_object_add(a->culprit, "reason",
                                   json_object_new_string(hang_account_reason_name(c->reason)));
            json_object_object_add(a->culprit, "evidence", json_object_new_string(c->text));
            json_object_object_add(a->culprit, "waited_on_directly_by",
                                   ranks_json(c->direct, c->ndirect));
            json_object_object_add(a->culprit, "waited_on_through_others_by",
                                   ranks_json(c->through, c->nthrough));
        }
    }
    free(c);
    free(functions);
    free(waits);
    free(lists);
    if (a->computation || a->nnamed == 0)
        return;
    hang_account_rerank(a->views, a->reason, a->faulty, a->nfaulty, a->named, a->nnamed);
    a->faulty = a->named;
    a->nfaulty = a->nnamed;
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
    report_entry *f = report_add_finding(s->report, "hang", summary);
    json_object *ev = report_finding_evidence(f);
    if (a->culprit)
        json_object_object_add(ev, "culprit", a->culprit);
    json_object_object_add(ev, "hang_type", json_object_new_string(type));
    json_object_object_add(ev, "faulty_ranks",
                           add_ranks(f, a->computation, a->faulty, a->nfaulty, a->views, a->n));
    hang_finding_add_time(ev, detection_time);
    json_object_object_add(ev, "sampler",
                           json_object_new_string(p->kind == RANK_PROBE_SHM ? "shm" : "ptrace"));
    json_object_object_add(ev, "model", model);
    json_object_object_add(ev, "per_rank", a->per_rank);
    hang_stack_tree_to_finding(a->tree, f);
    char suggestion[512];
    hang_account_suggestion(a->computation, a->faulty, a->nfaulty, a->views, suggestion,
                            sizeof suggestion);
    report_finding_set_suggestion(f, suggestion);
    report_render_finding_banner(f, stderr);
    roll_call(a->views, a->n, stderr, calls, sizeof calls);
    hang_stack_tree_print(a->tree, stderr);
}

void hang_diagnosis_report(cli_session *s, hang_probes *p, const struct hang_diag_result *result,
                           const int *faulty, const struct hang_diag_rank *last,
                           double detection_time, json_object *model)
{
    hang_account a = {.n = p->job->nranks};
    if (account_ranks(p, result, faulty, last, &a)) {
        account_culprit(p->job, &a);
        add_hang_finding(s, p, &a, detection_time, model);
    } else {
        mg_log_error("hang: out of memory: the hang cannot be reported");
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

void hang_diagnosis_report_dead_rank(cli_session *s, int dead_rank, const proc_exits *exits,
                                     bool job_ended, double detection_time)
{
    int n = s->job.nranks;
    rank_view *views = calloc((size_t)n, sizeof *views);
    int *pids = calloc((size_t)n, sizeof *pids);
    const rank_state **states = calloc((size_t)n, sizeof *states);
    char calls[900];
    uint64_t when;
    struct hang_finding_dead d = {.rank = dead_rank,
                                  .n = n,
                                  .pids = pids,
                                  .states = states,
                                  .listening = exits != NULL,
                                  .job_ended = job_ended,
                                  .detection_time = detection_time,
                                  .calls = calls};
    d.exit_seen = proc_exits_status(exits, dead_rank, &d.wait_status, &when);
    for (int r = 0; views && pids && states && r < n; r++) {
        const rank_state *state = states[r] = s->job.ranks[r].state;
        const char *fn = mg_rank_state_function(state);
        bool in_mpi = state && atomic_load_explicit(&state->threads_in_mpi, memory_order_relaxed);
        views[r] = (rank_view){.state = hang_account_at_death(r, dead_rank, in_mpi),
                               .what = fn ? fn : "?"};
        pids[r] = s->job.ranks[r].pid;
    }
    if (views && pids && states) {
        roll_call(views, n, NULL, calls, sizeof calls);
        hang_finding_dead_rank(s->report, &d);
    } else {
        mg_log_error("hang: out of memory: rank %d's death cannot be reported", dead_rank);
    }
    free(views);
    free(pids);
    free(states);
}
