/* The culprit of a communication hang (hang_culprit.h). */
#include "hang_culprit.h"

#include "mg_error.h"

#include <stdlib.h>
#include <string.h>

/* The wait-for relation as a graph over the ranks and one more node, "everyone" (index n), so that
 * a collective's n edges are one: a rank waiting on all points to it, and it points to every live
 * rank. Adjacency in compressed rows. */
struct graph {
    size_t nodes;
    size_t *first; /* nodes + 1 */
    size_t *to;
};

static bool edge_to(const struct hang_culprit_rank *ranks, size_t r, int p)
{
    return p >= 0 && (size_t)p != r && ranks[p].live;
}

/* How many edges the graph has; with g, also writes them and their rows. */
static size_t edges_of(const struct hang_culprit_rank *ranks, size_t n, struct graph *g)
{
    size_t count = 0;
    for (size_t r = 0; r < n; r++) {
        if (g)
            g->first[r] = count;
        const struct hang_culprit_rank *k = &ranks[r];
        if (!k->live || !k->in_mpi)
            continue;
        if (k->wait == HANG_CULPRIT_WAIT_ALL) {
            if (g)
                g->to[count] = n;
            count++;
        }
        for (size_t i = 0; k->wait == HANG_CULPRIT_WAIT_PEERS && i < k->npeers; i++)
            if (edge_to(ranks, r, k->peers[i])) {
                if (g)
                    g->to[count] = (size_t)k->peers[i];
                count++;
            }
    }
    if (g)
        g->first[n] = count;
    for (size_t r = 0; r < n; r++)
        if (ranks[r].live) {
            if (g)
                g->to[count] = r;
            count++;
        }
    if (g)
        g->first[n + 1] = count;
    return count;
}

static int graph_build(const struct hang_culprit_rank *ranks, size_t n, struct graph *g)
{
    size_t count = edges_of(ranks, n, NULL);
    g->nodes = n + 1;
    g->first = malloc((n + 2) * sizeof *g->first);
    g->to = malloc((count ? count : 1) * sizeof *g->to);
    if (!g->first || !g->to)
        return MG_ERROR_ENOMEM;
    edges_of(ranks, n, g);
    return MG_ERROR_OK;
}

static void graph_free(struct graph *g)
{
    free(g->first);
    free(g->to);
}

/* Tarjan's strongly connected components, without recursion: comp[v] is v's component. work holds
 * 6 * g->nodes. Returns how many. */
static size_t components(const struct graph *g, size_t *comp, size_t *work)
{
    size_t v_count = g->nodes, none = SIZE_MAX;
    size_t *index = work, *low = work + v_count, *stack = work + 2 * v_count,
           *call = work + 3 * v_count, *next_edge = work + 4 * v_count;
    bool *on_stack = (bool *)(work + 5 * v_count);
    size_t counter = 0, depth = 0, ncomp = 0, top = 0;
    for (size_t v = 0; v < v_count; v++) {
        index[v] = none;
        on_stack[v] = false;
    }
    for (size_t root = 0; root < v_count; root++) {
        if (index[root] != none)
            continue;
        call[depth++] = root;
        index[root] = low[root] = counter++;
        next_edge[root] = g->first[root];
        stack[top++] = root;
        on_stack[root] = true;
        while (depth) {
            size_t v = call[depth - 1];
            if (next_edge[v] < g->first[v + 1]) {
                size_t w = g->to[next_edge[v]++];
                if (index[w] == none) {
                    index[w] = low[w] = counter++;
                    next_edge[w] = g->first[w];
                    stack[top++] = w;
                    on_stack[w] = true;
                    call[depth++] = w;
                } else if (on_stack[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            depth--;
            if (depth && low[v] < low[call[depth - 1]])
                low[call[depth - 1]] = low[v];
            if (low[v] == index[v]) {
                size_t w;
                do {
                    w = stack[--top];
                    on_stack[w] = false;
                    comp[w] = ncomp;
                } while (w != v);
                ncomp++;
            }
        }
    }
    return ncomp;
}

/* The ranks of the one component with no edge out of it that holds a live rank; 0 when there are
 * several such components. */
static size_t sole_sink(const struct hang_culprit_rank *ranks, size_t n, const struct graph *g,
                        size_t *work, uint8_t *links)
{
    size_t *comp = work; /* then components' 6 * nodes */
    size_t ncomp = components(g, comp, work + g->nodes);
    bool *leaves = calloc(ncomp ? ncomp : 1, sizeof *leaves);
    if (!leaves)
        return 0;
    for (size_t v = 0; v < g->nodes; v++)
        for (size_t e = g->first[v]; e < g->first[v + 1]; e++)
            leaves[comp[v]] = leaves[comp[v]] || comp[g->to[e]] != comp[v];
    size_t sink = SIZE_MAX, sinks = 0;
    for (size_t r = 0; r < n; r++)
        if (ranks[r].live && !leaves[comp[r]] && comp[r] != sink) {
            sink = comp[r];
            sinks++;
        }
    free(leaves);
    size_t held = 0;
    for (size_t r = 0; sinks == 1 && r < n; r++)
        if (ranks[r].live && comp[r] == sink) {
            links[r] = HANG_CULPRIT_IS_CULPRIT;
            held++;
        }
    return held;
}

/* The fewest world collectives a live rank entered, when another entered more; UINT64_MAX when
 * all are level or none is known. */
static uint64_t fewest_collectives(const struct hang_culprit_rank *ranks, size_t n)
{
    uint64_t fewest = UINT64_MAX, most = 0;
    for (size_t r = 0; r < n; r++)
        if (ranks[r].live && ranks[r].collectives_known) {
            fewest = ranks[r].collectives < fewest ? ranks[r].collectives : fewest;
            most = ranks[r].collectives > most ? ranks[r].collectives : most;
        }
    return fewest < most ? fewest : UINT64_MAX;
}

/* What the rules of a rank's conduct judge: the ranks, and the fewest world collectives a live
 * rank entered (fewest_collectives). */
struct conduct {
    const struct hang_culprit_rank *ranks;
    size_t n;
    uint64_t fewest;
};

/* Marks the live ranks that pick(c, rank) selects; returns how many. */
static size_t mark(const struct conduct *c, uint8_t *links,
                   bool (*pick)(const struct conduct *, size_t))
{
    size_t count = 0;
    for (size_t r = 0; r < c->n; r++) {
        bool picked = c->ranks[r].live && pick(c, r);
        links[r] = picked ? HANG_CULPRIT_IS_CULPRIT : HANG_CULPRIT_UNLINKED;
        count += picked;
    }
    return count;
}

static bool is_outside(const struct conduct *c, size_t r)
{
    return !c->ranks[r].in_mpi;
}

static bool is_stopped(const struct conduct *c, size_t r)
{
    return c->ranks[r].stopped;
}

static bool is_in_handler(const struct conduct *c, size_t r)
{
    return c->ranks[r].in_handler;
}

/* Whether rank q's call may be the one that completes rank k's point-to-point wait: q is not
 * blocked in MPI, its wait is not known, or it may exchange with k (a peer k, any source). A rank
 * in a world collective exchanges with no one outside it. */
static bool may_meet(const struct hang_culprit_rank *q, size_t k)
{
    if (!q->live || !q->in_mpi || q->wait == HANG_CULPRIT_WAIT_UNKNOWN)
        return true;
    if (q->world_collective)
        return false;
    bool meets = q->wait == HANG_CULPRIT_WAIT_ALL;
    for (size_t i = 0; q->wait == HANG_CULPRIT_WAIT_PEERS && i < q->npeers; i++)
        meets = meets || (size_t)q->peers[i] == k;
    return meets;
}

/* Whether rank r's published wait is for what has not come: a world collective some live rank has
 * not entered, or point-to-point peers (every other rank for any source) none of which may meet
 * it. Such a rank waits, whatever its CPU: Open MPI's waits busy-poll, and a waiting rank's slices
 * read as a spinner's on a loaded node (issue 31: rank 1 of mn_behind.c named spinning in the
 * allreduce rank 2 never entered). */
static bool waits_unmet(const struct conduct *c, size_t r)
{
    const struct hang_culprit_rank *k = &c->ranks[r];
    if (k->world_collective)
        return k->collectives_known && c->fewest != UINT64_MAX && k->collectives > c->fewest;
    bool unmet = k->wait == HANG_CULPRIT_WAIT_ALL     ? c->n > 1
                 : k->wait == HANG_CULPRIT_WAIT_PEERS ? k->npeers > 0
                                                      : false;
    for (size_t i = 0; unmet && k->wait == HANG_CULPRIT_WAIT_PEERS && i < k->npeers; i++)
        unmet = !may_meet(&c->ranks[k->peers[i]], r);
    for (size_t q = 0; unmet && k->wait == HANG_CULPRIT_WAIT_ALL && q < c->n; q++)
        unmet = q == r || !may_meet(&c->ranks[q], r);
    return unmet;
}

/* The watch saw it spin inside MPI, and its wait does not explain that: a handler or callback
 * whose frames were not read, in a call that could have completed. */
static bool is_spinning(const struct conduct *c, size_t r)
{
    return c->ranks[r].spun && !waits_unmet(c, r);
}

static bool entered_only(const struct conduct *c, size_t r)
{
    return c->ranks[r].collectives_known && c->ranks[r].collectives == c->fewest;
}

/* Sets links[] of the ranks that wait on a culprit: directly (an edge to it, or to everyone),
 * then through others, until nothing changes. */
static void link_waiters(const struct graph *g, size_t n, uint8_t *links)
{
    for (size_t r = 0; r < n; r++) {
        if (links[r] != HANG_CULPRIT_UNLINKED)
            continue;
        for (size_t e = g->first[r]; e < g->first[r + 1]; e++) {
            size_t w = g->to[e];
            if (w == n || links[w] == HANG_CULPRIT_IS_CULPRIT)
                links[r] = HANG_CULPRIT_WAITS_DIRECTLY;
        }
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t r = 0; r < n; r++)
            for (size_t e = g->first[r]; links[r] == HANG_CULPRIT_UNLINKED && e < g->first[r + 1];
                 e++)
                if (g->to[e] < n && links[g->to[e]] != HANG_CULPRIT_UNLINKED) {
                    links[r] = HANG_CULPRIT_WAITS_THROUGH;
                    changed = true;
                }
    }
}

/* Among several ranks behind in the collective epoch, those that wait on another of them in
 * point-to-point are held by it, not culprits: a stencil's neighbours of a rank stuck before the
 * collective wait on it in their halo exchange, one step behind the rank that reached the
 * collective (hang_mpich_stencil_deadlock_shm_4). The one sink of the wait-for relation among the
 * behind ranks narrows them. A receive from any source is no edge there: it waits for a message
 * no rank is bound to send. With no single sink, the behind ranks stay the culprits. */
static int refine_behind(const struct hang_culprit_rank *ranks, size_t n, uint8_t *links,
                         size_t *work, struct hang_culprit_result *out)
{
    struct hang_culprit_rank *behind = malloc(n * sizeof *behind);
    if (!behind)
        return MG_ERROR_ENOMEM;
    for (size_t r = 0; r < n; r++) {
        behind[r] = ranks[r];
        behind[r].live = links[r] == HANG_CULPRIT_IS_CULPRIT;
        if (behind[r].wait == HANG_CULPRIT_WAIT_ALL)
            behind[r].wait = HANG_CULPRIT_WAIT_UNKNOWN;
    }
    struct graph g = {0};
    int rc = graph_build(behind, n, &g);
    uint8_t *narrowed = rc == MG_ERROR_OK ? calloc(n, 1) : NULL;
    if (rc == MG_ERROR_OK && !narrowed)
        rc = MG_ERROR_ENOMEM;
    size_t held = rc == MG_ERROR_OK ? sole_sink(behind, n, &g, work, narrowed) : 0;
    if (held > 0 && held < out->nculprits) {
        memcpy(links, narrowed, n);
        out->nculprits = held;
    }
    free(narrowed);
    graph_free(&g);
    free(behind);
    return rc;
}

/* The live ranks; SIZE_MAX when a published peer is out of [0, n). */
static size_t count_live(const struct hang_culprit_rank *ranks, size_t n)
{
    size_t live = 0;
    for (size_t r = 0; r < n; r++) {
        for (size_t i = 0; ranks[r].wait == HANG_CULPRIT_WAIT_PEERS && i < ranks[r].npeers; i++)
            if (ranks[r].peers[i] < 0 || (size_t)ranks[r].peers[i] >= n ||
                ranks[r].npeers > HANG_CULPRIT_MAX_PEERS)
                return SIZE_MAX;
        live += ranks[r].live;
    }
    return live;
}

/* The first rule of a rank's own conduct or the collective epoch that singles out fewer ranks
 * than are live: marks them in links and says which in *out (reason NONE when none does). The
 * process state comes first: a rank stopped from outside is held whatever it was doing, and where
 * it stopped (inside or outside MPI) is told beside the reason. */
static void first_rule(const struct hang_culprit_rank *ranks, size_t n, size_t live, uint8_t *links,
                       struct hang_culprit_result *out)
{
    struct {
        enum hang_culprit_reason reason;
        bool (*pick)(const struct conduct *, size_t);
    } const rules[] = {{HANG_CULPRIT_STOPPED, is_stopped},
                       {HANG_CULPRIT_OUTSIDE, is_outside},
                       {HANG_CULPRIT_IN_HANDLER, is_in_handler},
                       {HANG_CULPRIT_SPINNING, is_spinning},
                       {HANG_CULPRIT_BEHIND, entered_only}};
    const struct conduct c = {.ranks = ranks, .n = n, .fewest = fewest_collectives(ranks, n)};
    *out = (struct hang_culprit_result){.reason = HANG_CULPRIT_NONE};
    for (size_t i = 0; i < sizeof rules / sizeof *rules && !out->nculprits; i++) {
        size_t count = mark(&c, links, rules[i].pick);
        if (count > 0 && count < live)
            *out = (struct hang_culprit_result){.reason = rules[i].reason, .nculprits = count};
    }
}

int hang_culprit_find(const struct hang_culprit_rank *ranks, size_t n, uint8_t *links,
                      struct hang_culprit_result *out)
{
    if (!ranks || !links || !out || n == 0)
        return MG_ERROR_EINVAL;
    size_t live = count_live(ranks, n);
    if (live == SIZE_MAX)
        return MG_ERROR_EINVAL;
    struct graph g = {0};
    size_t *work = malloc(7 * (n + 1) * sizeof *work);
    int rc = work ? graph_build(ranks, n, &g) : MG_ERROR_ENOMEM;
    if (rc != MG_ERROR_OK) {
        free(work);
        graph_free(&g);
        return rc;
    }
    first_rule(ranks, n, live, links, out);
    if (out->reason == HANG_CULPRIT_BEHIND && out->nculprits > 1) {
        rc = refine_behind(ranks, n, links, work, out);
        if (rc != MG_ERROR_OK) {
            free(work);
            graph_free(&g);
            return rc;
        }
    }
    if (!out->nculprits) {
        for (size_t r = 0; r < n; r++)
            links[r] = HANG_CULPRIT_UNLINKED;
        size_t held = sole_sink(ranks, n, &g, work, links);
        if (held > 0 && held < live)
            *out = (struct hang_culprit_result){.reason = HANG_CULPRIT_WAITED_ON,
                                                .nculprits = held};
    }
    if (!out->nculprits)
        for (size_t r = 0; r < n; r++)
            links[r] = HANG_CULPRIT_UNLINKED;
    out->first = -1;
    for (size_t r = 0; r < n && out->first < 0; r++)
        if (links[r] == HANG_CULPRIT_IS_CULPRIT)
            out->first = (int)r;
    if (out->nculprits)
        link_waiters(&g, n, links);
    free(work);
    graph_free(&g);
    return MG_ERROR_OK;
}
