/* The static control-flow graph of an instrumented program (cfg_graph.h). */
#include "cfg_graph.h"

#include <stdlib.h>
#include <string.h>

#include "mg_array.h"
#include "mg_error.h"

int cfg_graph_create(cfg_graph *g, uint64_t build_id, uint32_t nnodes, uint32_t nbranches)
{
    memset(g, 0, sizeof *g);
    if (nnodes > CFG_GRAPH_MAX_NODES || nbranches > CFG_GRAPH_MAX_BRANCHES)
        return MG_ERROR_EINVAL;
    g->branch_node = malloc(((size_t)nbranches + 1) * sizeof *g->branch_node);
    if (!g->branch_node)
        return MG_ERROR_ENOMEM;
    for (uint32_t b = 0; b < nbranches; b++)
        g->branch_node[b] = UINT32_MAX;
    g->build_id = build_id;
    g->nnodes = nnodes;
    g->nbranches = nbranches;
    return 0;
}

int cfg_graph_set_branch(cfg_graph *g, uint32_t branch, uint32_t node)
{
    if (branch >= g->nbranches || node >= g->nnodes)
        return MG_ERROR_EINVAL;
    g->branch_node[branch] = node;
    return 0;
}

static int append(cfg_graph_pair **v, uint32_t *n, size_t *cap, uint32_t a, uint32_t b)
{
    if (*n == UINT32_MAX)
        return MG_ERROR_ERANGE;
    int rc = mg_array_reserve((void **)v, cap, (size_t)*n + 1, sizeof **v);
    if (rc != 0)
        return rc;
    (*v)[(*n)++] = (cfg_graph_pair){a, b};
    return 0;
}

int cfg_graph_add_edge(cfg_graph *g, uint32_t from, uint32_t to)
{
    if (from >= g->nnodes || to >= g->nnodes)
        return MG_ERROR_EINVAL;
    return append(&g->edges, &g->nedges, &g->edges_cap, from, to);
}

int cfg_graph_add_target(cfg_graph *g, uint32_t arm, uint32_t node)
{
    if (arm / 2 >= g->nbranches || node >= g->nnodes)
        return MG_ERROR_EINVAL;
    return append(&g->targets, &g->ntargets, &g->targets_cap, arm, node);
}

static int pair_cmp(const void *x, const void *y)
{
    const cfg_graph_pair *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

/* Sorts by (a, b) and drops repeated pairs: the file and the adjacency are then canonical. */
static uint32_t sort_unique(cfg_graph_pair *v, uint32_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, pair_cmp);
    uint32_t k = 1;
    for (uint32_t i = 1; i < n; i++)
        if (v[i].a != v[k - 1].a || v[i].b != v[k - 1].b)
            v[k++] = v[i];
    return k;
}

/* Compressed rows of pairs sorted by key: at[key] .. at[key + 1] index out[]. With flip the
 * pairs are read as (b, a) (the predecessor lists), which are counted then placed. */
static int rows(const cfg_graph_pair *v, uint32_t n, uint32_t nkeys, int flip, uint32_t **at_out,
                uint32_t **out)
{
    uint32_t *at = calloc((size_t)nkeys + 2, sizeof *at);
    uint32_t *to = malloc(((size_t)n + 1) * sizeof *to);
    if (!at || !to) {
        free(at);
        free(to);
        return MG_ERROR_ENOMEM;
    }
    for (uint32_t i = 0; i < n; i++)
        at[(flip ? v[i].b : v[i].a) + 2]++;
    for (uint32_t k = 0; k < nkeys; k++)
        at[k + 2] += at[k + 1];
    for (uint32_t i = 0; i < n; i++)
        to[at[(flip ? v[i].b : v[i].a) + 1]++] = flip ? v[i].a : v[i].b;
    *at_out = at;
    *out = to;
    return 0;
}

static void drop_index(cfg_graph *g)
{
    free(g->succ_at);
    free(g->succ);
    free(g->pred_at);
    free(g->pred);
    free(g->arm_at);
    free(g->arm_to);
    g->succ_at = g->succ = g->pred_at = g->pred = g->arm_at = g->arm_to = NULL;
}

int cfg_graph_index(cfg_graph *g)
{
    drop_index(g);
    for (uint32_t b = 0; b < g->nbranches; b++)
        if (g->branch_node[b] == UINT32_MAX)
            return MG_ERROR_EFORMAT;
    g->nedges = sort_unique(g->edges, g->nedges);
    g->ntargets = sort_unique(g->targets, g->ntargets);
    int rc = rows(g->edges, g->nedges, g->nnodes, 0, &g->succ_at, &g->succ);
    if (!rc)
        rc = rows(g->edges, g->nedges, g->nnodes, 1, &g->pred_at, &g->pred);
    if (!rc)
        rc = rows(g->targets, g->ntargets, 2 * g->nbranches, 0, &g->arm_at, &g->arm_to);
    for (uint32_t a = 0; !rc && a < 2 * g->nbranches; a++)
        if (g->arm_at[a] == g->arm_at[a + 1])
            rc = MG_ERROR_EFORMAT;
    if (rc)
        drop_index(g);
    return rc;
}

void cfg_graph_free(cfg_graph *g)
{
    if (!g)
        return;
    drop_index(g);
    free(g->branch_node);
    free(g->edges);
    free(g->targets);
    memset(g, 0, sizeof *g);
}
