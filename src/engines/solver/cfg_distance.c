/* Breadth-first distances over the static control-flow graph (cfg_distance.h). */
#include "cfg_distance.h"

#include <stdlib.h>
#include <string.h>

#include "mg_error.h"

/* Breadth-first search from the nodes already at distance 0 in d (the first nq entries of
 * queue, which has room for every node), along successor rows (forward) or predecessor rows
 * (backward). */
static void bfs(const cfg_graph *g, int backward, uint32_t *d, uint32_t *queue, uint32_t nq)
{
    const uint32_t *at = backward ? g->pred_at : g->succ_at, *to = backward ? g->pred : g->succ;
    for (uint32_t head = 0; head < nq; head++) {
        uint32_t n = queue[head];
        for (uint32_t k = at[n]; k < at[n + 1]; k++)
            if (d[to[k]] == UINT32_MAX) {
                d[to[k]] = d[n] + 1;
                queue[nq++] = to[k];
            }
    }
}

static int node_arrays(const cfg_graph *g, uint32_t **d, uint32_t **queue)
{
    *d = malloc(((size_t)g->nnodes + 1) * sizeof **d);
    *queue = malloc(((size_t)g->nnodes + 1) * sizeof **queue);
    if (!*d || !*queue) {
        free(*d);
        free(*queue);
        return MG_ERROR_ENOMEM;
    }
    for (uint32_t i = 0; i < g->nnodes; i++)
        (*d)[i] = UINT32_MAX;
    return 0;
}

static void seed(uint32_t *d, uint32_t *queue, uint32_t *nq, uint32_t node)
{
    if (d[node] != 0) {
        d[node] = 0;
        queue[(*nq)++] = node;
    }
}

/* The nearest of an arm's target nodes in d. */
static uint32_t arm_min(const cfg_graph *g, const uint32_t *d, uint32_t arm)
{
    uint32_t best = UINT32_MAX;
    for (uint32_t k = g->arm_at[arm]; k < g->arm_at[arm + 1]; k++)
        if (d[g->arm_to[k]] < best)
            best = d[g->arm_to[k]];
    return best;
}

int cfg_distance_to_uncovered(const cfg_graph *g, const coverage_set *cov, uint32_t *dist, size_t n)
{
    if (!g || !cov || !dist || !g->succ_at || n < 2 * (size_t)g->nbranches)
        return MG_ERROR_EINVAL;
    uint32_t *d, *queue, nq = 0;
    if (node_arrays(g, &d, &queue))
        return MG_ERROR_ENOMEM;
    /* Backward from every node holding a branch with an uncovered arm: d[node] is then the
     * hops from node to the nearest such branch. */
    for (uint32_t b = 0; b < g->nbranches; b++)
        if (!coverage_set_contains(cov, coverage_arm(b, 0)) ||
            !coverage_set_contains(cov, coverage_arm(b, 1)))
            seed(d, queue, &nq, g->branch_node[b]);
    bfs(g, 1, d, queue, nq);
    for (size_t a = 0; a < n; a++) {
        uint32_t m = a < 2 * (size_t)g->nbranches ? arm_min(g, d, (uint32_t)a) : UINT32_MAX;
        if (a < 2 * (size_t)g->nbranches && !coverage_set_contains(cov, (uint32_t)a))
            dist[a] = 0;
        else
            dist[a] = m == UINT32_MAX ? UINT32_MAX : m + 1;
    }
    free(d);
    free(queue);
    return 0;
}

int cfg_distance_from_arm(const cfg_graph *g, uint32_t arm, uint32_t *hops)
{
    if (!g || !hops || !g->succ_at || arm / 2 >= g->nbranches)
        return MG_ERROR_EINVAL;
    uint32_t *d, *queue, nq = 0;
    if (node_arrays(g, &d, &queue))
        return MG_ERROR_ENOMEM;
    for (uint32_t k = g->arm_at[arm]; k < g->arm_at[arm + 1]; k++)
        seed(d, queue, &nq, g->arm_to[k]);
    bfs(g, 0, d, queue, nq);
    for (uint32_t b = 0; b < g->nbranches; b++)
        hops[b] = d[g->branch_node[b]];
    free(d);
    free(queue);
    return 0;
}
