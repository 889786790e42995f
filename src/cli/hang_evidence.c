/* The culprit of a communication hang with its evidence (hang_evidence.h). */
#include "hang_evidence.h"

#include "mg_ranks.h"
#include "rank_state.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_object *peer_json(const mg_rank_state *state, int peer, int tag, uint64_t comm)
{
    json_object *p = json_object_new_object();
    json_object_object_add(p, "peer", json_object_new_int(peer));
    json_object_object_add(p, "tag", json_object_new_int(tag));
    json_object_object_add(p, "world_ranks",
                           json_object_new_boolean(hang_facts_world_like(state, comm)));
    return p;
}

/* The "waits_for" object of a rank's report entry (docs/report-schema.md). */
static json_object *wait_json(const mg_rank_state *state)
{
    static const char *const names[] = {"nothing", "peer", "root", "all", "requests"};
    uint32_t on = atomic_load_explicit(&state->wait_on, memory_order_relaxed);
    json_object *w = json_object_new_object();
    json_object_object_add(w, "on",
                           json_object_new_string(on <= MG_WAIT_REQUESTS ? names[on] : "nothing"));
    if (on == MG_WAIT_PEER || on == MG_WAIT_ROOT || on == MG_WAIT_ALL)
        json_object_object_add(
            w, "call",
            peer_json(state, atomic_load_explicit(&state->wait_peer, memory_order_relaxed),
                      atomic_load_explicit(&state->wait_tag, memory_order_relaxed),
                      atomic_load_explicit(&state->wait_comm, memory_order_relaxed)));
    if (on == MG_WAIT_REQUESTS) {
        json_object *posted_json = json_object_new_array();
        uint32_t posted = atomic_load_explicit(&state->posted, memory_order_relaxed);
        for (uint32_t i = 0; i < posted && i < MG_RANK_STATE_POSTED; i++)
            json_object_array_add(
                posted_json,
                peer_json(state, atomic_load_explicit(&state->posted_peer[i], memory_order_relaxed),
                          atomic_load_explicit(&state->posted_tag[i], memory_order_relaxed),
                          atomic_load_explicit(&state->posted_comm[i], memory_order_relaxed)));
        json_object_object_add(w, "posted", posted_json);
    }
    json_object_object_add(w, "world_collectives",
                           json_object_new_int64((int64_t)atomic_load_explicit(
                               &state->world_collectives, memory_order_relaxed)));
    return w;
}

void hang_evidence_rank(const job_session *js, int r, const struct hang_facts_seen *seen,
                        const rank_stack *st, struct hang_culprit_rank *out, json_object *entry)
{
    const char *app = strrchr(js->launcher.app_path, '/');
    const mg_rank_state *state = js->ranks[r].state;
    hang_facts_rank(seen, st, app ? app + 1 : js->launcher.app_path, state, r, out);
    if (seen->live && seen->in_mpi && state)
        json_object_object_add(entry, "waits_for", wait_json(state));
}

/* "MPI_Recv, source 6, tag 3", "MPI_Waitall, requests with 4,6", "MPI_Allreduce, collective 57 on
 * MPI_COMM_WORLD": what rank r's call waits for, in words (as the search took it). */
static void describe_wait(const job_session *js, int r, const struct hang_culprit_rank *k,
                          const char *function, char *text, size_t len)
{
    const mg_rank_state *state = js->ranks[r].state;
    uint32_t on = state ? atomic_load_explicit(&state->wait_on, memory_order_relaxed)
                        : MG_WAIT_NOTHING;
    int tag = state ? atomic_load_explicit(&state->wait_tag, memory_order_relaxed) : MG_TAG_ANY;
    bool receives = strstr(function, "recv") || strstr(function, "Recv") ||
                    strstr(function, "Probe");
    char peers[128] = "";
    int list[HANG_CULPRIT_MAX_PEERS];
    for (size_t i = 0; i < k->npeers; i++)
        list[i] = k->peers[i];
    mg_ranks_format(list, k->npeers, peers, sizeof peers);
    if (on == MG_WAIT_REQUESTS && k->wait == HANG_WAIT_PEERS)
        snprintf(text, len, "%s, requests with %s", function, peers);
    else if (on == MG_WAIT_REQUESTS && k->wait == HANG_WAIT_ALL)
        snprintf(text, len, "%s, a request from any source", function);
    else if (on == MG_WAIT_ALL && k->wait == HANG_WAIT_ALL)
        snprintf(text, len, "%s, collective %llu on MPI_COMM_WORLD", function,
                 (unsigned long long)k->collectives);
    else if (on == MG_WAIT_PEER && k->wait == HANG_WAIT_ALL)
        snprintf(text, len, "%s, any source, tag %d", function, tag);
    else if (on == MG_WAIT_ROOT && k->wait == HANG_WAIT_PEERS)
        snprintf(text, len, "%s, root %s", function, peers);
    else if (on == MG_WAIT_PEER && k->wait == HANG_WAIT_PEERS)
        snprintf(text, len, "%s, %s %s, tag %d", function, receives ? "source" : "dest", peers,
                 tag);
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

static const char *reason_name(enum hang_culprit_reason reason)
{
    static const char *const names[] = {"none",     "outside-mpi", "stopped",  "in-handler",
                                        "spinning", "behind",      "waited-on"};
    return names[reason];
}

/* Appends "; ranks 5,7 wait on rank 6 (MPI_Waitall, requests with 6-7)" for each distinct wait of
 * the ranks linked as link, or "; ranks 0-4 wait on those in turn". */
static void append_waiters(const job_session *js, const struct hang_culprit_rank *facts,
                           const char *const *functions, const uint8_t *links, uint8_t link,
                           const char *culprit_text, char *chain, size_t len, json_object *list)
{
    int n = js->nranks;
    int *group = malloc((size_t)n * sizeof *group);
    char *done = calloc((size_t)n, 1), what[256], other[256], ranks[256];
    for (int r = 0; group && done && r < n; r++) {
        if (links[r] != link || done[r])
            continue;
        describe_wait(js, r, &facts[r], functions[r], what, sizeof what);
        size_t k = 0;
        for (int q = r; q < n; q++) {
            if (links[q] != link || done[q])
                continue;
            describe_wait(js, q, &facts[q], functions[q], other, sizeof other);
            if (link == HANG_CULPRIT_WAITS_THROUGH || strcmp(what, other) == 0) {
                group[k++] = q;
                done[q] = 1;
                json_object_array_add(list, json_object_new_int(q));
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
    free(group);
    free(done);
}

json_object *hang_evidence_conclude(const job_session *js, const struct hang_culprit_rank *facts,
                                    const char *const *functions, char *chain, size_t chain_len,
                                    int *culprits, size_t *nculprits)
{
    int n = js->nranks;
    uint8_t *links = malloc((size_t)n);
    struct hang_culprit_result result = {0};
    chain[0] = '\0';
    *nculprits = 0;
    if (!links || hang_culprit_find(facts, (size_t)n, links, &result) != 0 ||
        result.nculprits == 0) {
        free(links);
        return NULL;
    }
    json_object *culprit = json_object_new_object(), *ranks = json_object_new_array();
    for (int r = 0; r < n; r++)
        if (links[r] == HANG_CULPRIT_IS_CULPRIT) {
            culprits[(*nculprits)++] = r;
            json_object_array_add(ranks, json_object_new_int(r));
        }
    char culprit_text[300], list[256];
    mg_ranks_format(culprits, *nculprits, list, sizeof list);
    snprintf(culprit_text, sizeof culprit_text, "rank%s %s", *nculprits == 1 ? "" : "s", list);
    json_object *direct = json_object_new_array(), *through = json_object_new_array();
    append_waiters(js, facts, functions, links, HANG_CULPRIT_WAITS_DIRECTLY, culprit_text, chain,
                   chain_len, direct);
    append_waiters(js, facts, functions, links, HANG_CULPRIT_WAITS_THROUGH, culprit_text, chain,
                   chain_len, through);
    size_t used = strlen(chain);
    snprintf(chain + used, chain_len - used, "%s%s %s %s", used ? "; " : "", culprit_text,
             conduct(result.reason, &facts[culprits[0]]), functions[culprits[0]]);
    json_object_object_add(culprit, "ranks", ranks);
    json_object_object_add(culprit, "reason", json_object_new_string(reason_name(result.reason)));
    json_object_object_add(culprit, "evidence", json_object_new_string(chain));
    json_object_object_add(culprit, "waited_on_directly_by", direct);
    json_object_object_add(culprit, "waited_on_through_others_by", through);
    free(links);
    return culprit;
}
