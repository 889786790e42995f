/* AND⊕OR wait-for graph storage and pass-through removal, see wait_graph.h. */
#include "wait_graph.h"

#include <stdlib.h>
#include <string.h>

#include "mg_array.h"
#include "mg_error.h"

#define WG_GONE UINT32_MAX

void wait_graph_init(wait_graph *g)
{
    memset(g, 0, sizeof *g);
}

void wait_graph_free(wait_graph *g)
{
    free(g->nodes);
    free(g->arcs);
    free(g->out_start);
    wait_graph_init(g);
}

int wait_graph_add_node(wait_graph *g, const wait_graph_node *node, uint32_t *id)
{
    if (g->n_nodes >= WG_GONE - 1) {
        return MG_ERROR_ERANGE;
    }
    if (mg_array_reserve((void **)&g->nodes, &g->cap_nodes, g->n_nodes + 1, sizeof *g->nodes)) {
        return MG_ERROR_ENOMEM;
    }
    g->nodes[g->n_nodes] = *node;
    *id = (uint32_t)g->n_nodes++;
    return MG_ERROR_OK;
}

int wait_graph_add_arc(wait_graph *g, uint32_t from, uint32_t to)
{
    if (from >= g->n_nodes || to >= g->n_nodes) {
        return MG_ERROR_EINVAL;
    }
    if (mg_array_reserve((void **)&g->arcs, &g->cap_arcs, g->n_arcs + 1, sizeof *g->arcs)) {
        return MG_ERROR_ENOMEM;
    }
    g->arcs[g->n_arcs++] = (wait_graph_arc){from, to};
    return MG_ERROR_OK;
}

/* Counting sort of the arcs by source into out_start (n_nodes + 1 offsets). */
static int sort_arcs(wait_graph *g)
{
    uint32_t *start = calloc(g->n_nodes + 1, sizeof *start);
    wait_graph_arc *sorted = malloc((g->n_arcs ? g->n_arcs : 1) * sizeof *sorted);
    if (!start || !sorted) {
        free(start);
        free(sorted);
        return MG_ERROR_ENOMEM;
    }
    for (size_t i = 0; i < g->n_arcs; i++) {
        start[g->arcs[i].from + 1]++;
    }
    for (size_t v = 0; v < g->n_nodes; v++) {
        start[v + 1] += start[v];
    }
    for (size_t i = 0; i < g->n_arcs; i++) {
        sorted[start[g->arcs[i].from]++] = g->arcs[i];
    }
    for (size_t v = g->n_nodes; v > 0; v--) {
        start[v] = start[v - 1];
    }
    start[0] = 0;
    free(g->arcs);
    free(g->out_start);
    g->arcs = sorted;
    g->cap_arcs = g->n_arcs ? g->n_arcs : 1;
    g->out_start = start;
    return MG_ERROR_OK;
}

int wait_graph_finish(wait_graph *g)
{
    size_t n = g->n_nodes;
    uint32_t *in = calloc(n + 1, sizeof *in), *out = calloc(n + 1, sizeof *out);
    uint32_t *succ = malloc((n + 1) * sizeof *succ), *renum = malloc((n + 1) * sizeof *renum);
    if (!in || !out || !succ || !renum) {
        free(in), free(out), free(succ), free(renum);
        return MG_ERROR_ENOMEM;
    }
    for (size_t i = 0; i < g->n_arcs; i++) {
        out[g->arcs[i].from]++;
        in[g->arcs[i].to]++;
        succ[g->arcs[i].from] = g->arcs[i].to;
    }
    /* A pass-through node keeps only its single successor; chains are followed below. A cycle of
     * pass-through nodes cannot occur (intermediate nodes only point away from their process),
     * but the walk is bounded by n all the same. */
    size_t kept = 0;
    for (size_t v = 0; v < n; v++) {
        int pass = g->nodes[v].type != WAIT_GRAPH_PROCESS && in[v] == 1 && out[v] == 1;
        renum[v] = pass ? WG_GONE : (uint32_t)kept++;
    }
    size_t m = 0;
    for (size_t i = 0; i < g->n_arcs; i++) {
        uint32_t from = g->arcs[i].from, to = g->arcs[i].to;
        if (renum[from] == WG_GONE) {
            continue;
        }
        for (size_t hops = 0; renum[to] == WG_GONE && hops < n; hops++) {
            to = succ[to];
        }
        if (renum[to] == WG_GONE) {
            continue;
        }
        g->arcs[m++] = (wait_graph_arc){renum[from], renum[to]};
    }
    g->n_arcs = m;
    for (size_t v = 0; v < n; v++) {
        if (renum[v] != WG_GONE) {
            g->nodes[renum[v]] = g->nodes[v];
        }
    }
    g->n_nodes = kept;
    free(in), free(out), free(succ), free(renum);
    return sort_arcs(g);
}

int wait_graph_arc_is_or(const wait_graph *g, size_t arc)
{
    return g->nodes[g->arcs[arc].from].sem == WAIT_GRAPH_OR;
}

int wait_graph_subgraph(const wait_graph *g, const uint8_t *keep, wait_graph *dst)
{
    wait_graph_init(dst);
    uint32_t *renum = malloc((g->n_nodes + 1) * sizeof *renum);
    if (!renum) {
        return MG_ERROR_ENOMEM;
    }
    int rc = MG_ERROR_OK;
    for (size_t v = 0; v < g->n_nodes && !rc; v++) {
        renum[v] = WG_GONE;
        if (keep[v]) {
            rc = wait_graph_add_node(dst, &g->nodes[v], &renum[v]);
        }
    }
    for (size_t i = 0; i < g->n_arcs && !rc; i++) {
        uint32_t a = renum[g->arcs[i].from], b = renum[g->arcs[i].to];
        if (a != WG_GONE && b != WG_GONE) {
            rc = wait_graph_add_arc(dst, a, b);
        }
    }
    free(renum);
    rc = rc ? rc : sort_arcs(dst);
    if (rc) {
        wait_graph_free(dst);
    }
    return rc;
}
