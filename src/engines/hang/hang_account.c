/* What the report of a hang says, in words (hang_account.h). */
#include "hang_account.h"

#include "mg_error.h"
#include "mg_ranks.h"
#include "rank_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hang_account_rank hang_account_judge(const struct hang_diag_rank *seen, bool faulty,
                                            bool polls, bool lost, bool before_init, bool elsewhere)
{
    bool absent = hang_diag_rank_absent(seen);
    /* A rank polling MPI_Test or MPI_Iprobe is outside MPI between two calls, where a single
     * reading can catch it; unless the scans found it outside MPI every time (faulty), it
     * waits in that function. */
    bool polling = !absent && seen->out_mpi && polls && !faulty;
    struct hang_account_rank a = {.in_mpi = !absent && (!seen->out_mpi || polling) && !before_init};
    a.culprit = a.in_mpi && faulty;
    enum hang_account_state held = seen->stopped ? HANG_ACCOUNT_STOPPED : HANG_ACCOUNT_COMPUTING;
    a.ask_process = !lost && !absent && !a.culprit && !a.in_mpi && !elsewhere;
    a.state = lost               ? HANG_ACCOUNT_LOST
              : seen->exited     ? HANG_ACCOUNT_EXITED
              : seen->unreadable ? HANG_ACCOUNT_UNREADABLE
              : a.culprit        ? held
              : a.in_mpi         ? HANG_ACCOUNT_IN_MPI
              : elsewhere        ? held
                                 : HANG_ACCOUNT_COMPUTING;
    a.label = lost               ? "UNKNOWN"
              : seen->unreadable ? "UNREADABLE"
              : a.in_mpi         ? "IN_MPI"
              : seen->exited     ? "EXITED"
                                 : "OUT_MPI";
    a.watch = (struct hang_facts_seen){.live = !seen->exited,
                                       .in_mpi = a.in_mpi,
                                       .stopped = faulty && seen->stopped,
                                       .spun = a.culprit && !seen->stopped};
    return a;
}

bool hang_account_computation(const struct hang_diag_result *result, const int *faulty,
                              size_t nfaulty, const struct hang_culprit_rank *facts)
{
    return result->kind == HANG_DIAG_COMPUTATION || (nfaulty > 0 && !facts[faulty[0]].in_mpi);
}

enum hang_account_state hang_account_at_death(int r, int dead_rank, bool in_mpi)
{
    return r == dead_rank ? HANG_ACCOUNT_EXITED
           : in_mpi       ? HANG_ACCOUNT_IN_MPI
                          : HANG_ACCOUNT_COMPUTING;
}

bool hang_account_roll_call(const struct hang_account_view *views, size_t n, char *done, int *group,
                            char *line, size_t len)
{
    size_t r = 0;
    while (r < n && done[r])
        r++;
    if (r == n)
        return false;
    size_t k = 0;
    for (size_t q = r; q < n; q++)
        if (!done[q] && views[q].state == views[r].state &&
            strcmp(views[q].what, views[r].what) == 0) {
            group[k++] = (int)q;
            done[q] = 1;
        }
    char ranks[256];
    mg_ranks_format(group, k, ranks, sizeof ranks);
    static const char *const verbs[] = {
        "wait%s in %s",
        "%s computing in %s()",
        "%s exited",
        "%s sleeping in %s()",
        "%s stopped in %s()",
        "%s not observed: its node's agent stopped answering",
        "%s alive but could not be read (its last reading was refused or timed out)"};
    char verb[300];
    const char *agreement = views[r].state == HANG_ACCOUNT_IN_MPI   ? (k == 1 ? "s" : "")
                            : views[r].state == HANG_ACCOUNT_EXITED ? (k == 1 ? "has" : "have")
                                                                    : (k == 1 ? "is" : "are");
    snprintf(verb, sizeof verb, verbs[views[r].state], agreement, views[r].what);
    snprintf(line, len, "rank%s %s %s", k == 1 ? "" : "s", ranks, verb);
    return true;
}

/* "MPI_Recv, source 6, tag 3", "MPI_Waitall, requests with 4,6", "MPI_Allreduce, collective 57 on
 * MPI_COMM_WORLD": what a rank's call waits for, in words (as the search took it). */
static void describe_wait(const struct hang_account_wait *w, const struct hang_culprit_rank *k,
                          const char *function, char *text, size_t len)
{
    bool receives = strstr(function, "recv") || strstr(function, "Recv") ||
                    strstr(function, "Probe");
    char peers[128] = "";
    int list[HANG_CULPRIT_MAX_PEERS];
    for (size_t i = 0; i < k->npeers; i++)
        list[i] = k->peers[i];
    mg_ranks_format(list, k->npeers, peers, sizeof peers);
    if (w->on == RANK_STATE_WAIT_REQUESTS && k->wait == HANG_CULPRIT_WAIT_PEERS)
        snprintf(text, len, "%s, requests with %s", function, peers);
    else if (w->on == RANK_STATE_WAIT_REQUESTS && k->wait == HANG_CULPRIT_WAIT_ALL)
        snprintf(text, len, "%s, a request from any source", function);
    else if (w->on == RANK_STATE_WAIT_ALL && k->wait == HANG_CULPRIT_WAIT_ALL)
        snprintf(text, len, "%s, collective %llu on MPI_COMM_WORLD", function,
                 (unsigned long long)k->collectives);
    else if (w->on == RANK_STATE_WAIT_PEER && k->wait == HANG_CULPRIT_WAIT_ALL)
        snprintf(text, len, "%s, any source, tag %d", function, w->tag);
    else if (w->on == RANK_STATE_WAIT_ROOT && k->wait == HANG_CULPRIT_WAIT_PEERS)
        snprintf(text, len, "%s, root %s", function, peers);
    else if (w->on == RANK_STATE_WAIT_PEER && k->wait == HANG_CULPRIT_WAIT_PEERS)
        snprintf(text, len, "%s, %s %s, tag %d", function, receives ? "source" : "dest", peers,
                 w->tag);
    else
        snprintf(text, len, "%s", function);
}

/* What the culprit k does, before the function it is in: "is stopped (state T) inside". */
static const char *conduct(enum hang_culprit_reason reason, const struct hang_culprit_rank *k)
{
    if (k->stopped)
        return k->in_mpi ? "is stopped (state T) inside" : "is stopped (state T) outside MPI, in";
    switch (reason) {
    case HANG_CULPRIT_OUTSIDE:
        return "computes outside MPI, in";
    case HANG_CULPRIT_IN_HANDLER:
        return "computes in a signal handler or callback inside";
    case HANG_CULPRIT_SPINNING:
        return "spins the CPU inside";
    case HANG_CULPRIT_BEHIND:
        return "entered fewer collectives than they did; it waits in";
    default:
        return "waits on no rank that waits on it, in";
    }
}

bool hang_account_named(const int *ranks, size_t n, int r)
{
    for (size_t i = 0; i < n; i++)
        if (ranks[i] == r)
            return true;
    return false;
}

void hang_account_rerank(struct hang_account_view *views, enum hang_culprit_reason reason,
                         const int *faulty, size_t nfaulty, const int *named, size_t nnamed)
{
    bool computes = reason == HANG_CULPRIT_IN_HANDLER || reason == HANG_CULPRIT_SPINNING;
    bool waits = reason == HANG_CULPRIT_BEHIND || reason == HANG_CULPRIT_WAITED_ON;
    for (size_t i = 0; i < nfaulty; i++)
        if (views[faulty[i]].state == HANG_ACCOUNT_COMPUTING &&
            (waits || !hang_account_named(named, nnamed, faulty[i])))
            views[faulty[i]].state = HANG_ACCOUNT_IN_MPI;
    for (size_t i = 0; computes && i < nnamed; i++)
        views[named[i]].state = HANG_ACCOUNT_COMPUTING;
}

const char *hang_account_reason_name(enum hang_culprit_reason reason)
{
    static const char *const names[] = {"none",     "outside-mpi", "stopped",  "in-handler",
                                        "spinning", "behind",      "waited-on"};
    return names[reason];
}

/* Appends "; ranks 5,7 wait on rank 6 (MPI_Waitall, requests with 6-7)" for each distinct wait of
 * the ranks linked as link, or "; ranks 0-4 wait on those in turn", listing them in list. */
static void append_waiters(const struct hang_culprit_rank *facts, const char *const *functions,
                           const struct hang_account_wait *waits, size_t n, const uint8_t *links,
                           uint8_t link, const char *culprit_text, char *chain, size_t len,
                           int *list, size_t *nlist, int *group, char *done)
{
    char what[256], other[256], ranks[256];
    memset(done, 0, n);
    for (size_t r = 0; r < n; r++) {
        if (links[r] != link || done[r])
            continue;
        describe_wait(&waits[r], &facts[r], functions[r], what, sizeof what);
        size_t k = 0;
        for (size_t q = r; q < n; q++) {
            if (links[q] != link || done[q])
                continue;
            describe_wait(&waits[q], &facts[q], functions[q], other, sizeof other);
            if (link == HANG_CULPRIT_WAITS_THROUGH || strcmp(what, other) == 0) {
                group[k++] = (int)q;
                done[q] = 1;
                list[(*nlist)++] = (int)q;
            }
        }
        mg_ranks_format(group, k, ranks, sizeof ranks);
        size_t used = strlen(chain);
        if (link == HANG_CULPRIT_WAITS_THROUGH)
            snprintf(chain + used, len - used, "%srank%s %s wait%s on those in turn",
                     used ? "; " : "", k == 1 ? "" : "s", ranks, k == 1 ? "s" : "");
        else
            snprintf(chain + used, len - used, "%srank%s %s wait%s on %s (%s)", used ? "; " : "",
                     k == 1 ? "" : "s", ranks, k == 1 ? "s" : "", culprit_text, what);
    }
}

int hang_account_chain(const struct hang_culprit_rank *facts, const char *const *functions,
                       const struct hang_account_wait *waits, size_t n,
                       struct hang_account_chain *out)
{
    out->text[0] = '\0';
    out->nculprits = out->ndirect = out->nthrough = 0;
    out->reason = HANG_CULPRIT_NONE;
    uint8_t *links = malloc(n);
    int *group = malloc(n * sizeof *group);
    char *done = malloc(n);
    struct hang_culprit_result result = {0};
    int rc = !links || !group || !done                          ? MG_ERROR_ENOMEM
             : hang_culprit_find(facts, n, links, &result) != 0 ? MG_ERROR_ENOMEM
             : result.nculprits == 0                            ? 1
                                                                : MG_ERROR_OK;
    if (rc == MG_ERROR_OK) {
        out->reason = result.reason;
        for (size_t r = 0; r < n; r++)
            if (links[r] == HANG_CULPRIT_IS_CULPRIT)
                out->culprits[out->nculprits++] = (int)r;
        char culprit_text[300], list[256];
        mg_ranks_format(out->culprits, out->nculprits, list, sizeof list);
        snprintf(culprit_text, sizeof culprit_text, "rank%s %s", out->nculprits == 1 ? "" : "s",
                 list);
        append_waiters(facts, functions, waits, n, links, HANG_CULPRIT_WAITS_DIRECTLY, culprit_text,
                       out->text, sizeof out->text, out->direct, &out->ndirect, group, done);
        append_waiters(facts, functions, waits, n, links, HANG_CULPRIT_WAITS_THROUGH, culprit_text,
                       out->text, sizeof out->text, out->through, &out->nthrough, group, done);
        size_t used = strlen(out->text);
        snprintf(out->text + used, sizeof out->text - used, "%s%s %s %s", used ? "; " : "",
                 culprit_text, conduct(result.reason, &facts[out->culprits[0]]),
                 functions[out->culprits[0]]);
    }
    free(links);
    free(group);
    free(done);
    return rc;
}

void hang_account_suggestion(bool computation, const int *faulty, size_t nfaulty,
                             const struct hang_account_view *views, char *text, size_t len)
{
    if (computation && nfaulty > 0) {
        snprintf(text, len,
                 "rank %d never returns to MPI from %s(): look at what it waits for or loops on",
                 faulty[0], views[faulty[0]].what);
    } else if (nfaulty > 0) {
        snprintf(text, len,
                 views[faulty[0]].state == HANG_ACCOUNT_STOPPED
                     ? "rank %d holds the others: it is stopped inside %s (SIGSTOP, a debugger, a "
                       "frozen node)"
                 : views[faulty[0]].state == HANG_ACCOUNT_COMPUTING
                     ? "rank %d holds the others: it spins inside %s while they wait (a signal "
                       "handler or callback that never returns)"
                     : "rank %d holds the others: they wait on it, and it waits in %s for what "
                       "never comes (a message never sent, a collective others do not call)",
                 faulty[0], views[faulty[0]].what);
    } else {
        snprintf(text, len,
                 "every rank waits inside MPI: look for a message that is never sent "
                 "or a collective some rank does not call (mpiguard check finds these)");
    }
}
