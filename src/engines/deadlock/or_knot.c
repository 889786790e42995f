/* Release propagation and OR-knot search on the AND⊕OR graph, see or_knot.h. */
#include "or_knot.h"

#include <stdlib.h>
#include <string.h>

#include "mg_error.h"

#define OK_UNSEEN UINT32_MAX

void or_knot_result_free(or_knot_result *result)
{
    free(result->status);
    memset(result, 0, sizeof *result);
}

/* Marks released[] by backward propagation; returns the number of released nodes or -1. */
static long release(const wait_graph *g, uint8_t *released)
{
    size_t n = g->n_nodes, m = g->n_arcs;
    uint32_t *in_start = calloc(n + 1, sizeof *in_start),
             *preds = malloc((m ? m : 1) * sizeof *preds);
    uint32_t *remaining = malloc((n ? n : 1) * sizeof *remaining),
             *queue = malloc((n ? n : 1) * sizeof *queue);
    long count = -1;
    if (!in_start || !preds || !remaining || !queue) {
        goto out;
    }
    for (size_t i = 0; i < m; i++) {
        in_start[g->arcs[i].to + 1]++;
    }
    for (size_t v = 0; v < n; v++) {
        in_start[v + 1] += in_start[v];
    }
    for (size_t i = 0; i < m; i++) {
        preds[in_start[g->arcs[i].to]++] = g->arcs[i].from;
    }
    for (size_t v = n; v > 0; v--) {
        in_start[v] = in_start[v - 1];
    }
    in_start[0] = 0;
    size_t qh = 0, qt = 0;
    for (size_t v = 0; v < n; v++) {
        const wait_graph_node *x = &g->nodes[v];
        remaining[v] = g->out_start[v + 1] - g->out_start[v];
        int seed = x->state == WAIT_GRAPH_RUNNING ||
                   (x->state == WAIT_GRAPH_BLOCKED && x->sem == WAIT_GRAPH_AND &&
                    remaining[v] == 0);
        released[v] = (uint8_t)seed;
        if (seed) {
            queue[qt++] = (uint32_t)v;
        }
    }
    while (qh < qt) {
        uint32_t v = queue[qh++];
        for (uint32_t i = in_start[v]; i < in_start[v + 1]; i++) {
            uint32_t u = preds[i];
            if (released[u] || g->nodes[u].state != WAIT_GRAPH_BLOCKED) {
                continue;
            }
            if (g->nodes[u].sem == WAIT_GRAPH_OR || --remaining[u] == 0) {
                released[u] = 1;
                queue[qt++] = u;
            }
        }
    }
    count = (long)qt;
out:
    free(in_start), free(preds), free(remaining), free(queue);
    return count;
}

/* Iterative Tarjan over the deadlocked nodes; marks the sink components as knots. */
static int knots(wait_graph *g, const uint8_t *released, uint8_t *status, size_t *n_knots)
{
    size_t n = g->n_nodes;
    uint32_t *index = malloc((n ? n : 1) * sizeof *index), *low = malloc((n ? n : 1) * sizeof *low);
    uint32_t *stack = malloc((n ? n : 1) * sizeof *stack),
             *call = malloc((n ? n : 1) * sizeof *call);
    uint32_t *edge = malloc((n ? n : 1) * sizeof *edge), *comp = malloc((n ? n : 1) * sizeof *comp);
    uint8_t *on_stack = calloc(n ? n : 1, 1);
    int rc = MG_ERROR_ENOMEM;
    if (!index || !low || !stack || !call || !edge || !comp || !on_stack) {
        goto out;
    }
    for (size_t v = 0; v < n; v++) {
        index[v] = OK_UNSEEN;
    }
    uint32_t next_index = 0, n_comp = 0;
    size_t sp = 0;
    for (size_t root = 0; root < n; root++) {
        if (released[root] || index[root] != OK_UNSEEN) {
            continue;
        }
        size_t depth = 0;
        call[depth] = (uint32_t)root;
        edge[depth] = g->out_start[root];
        index[root] = low[root] = next_index++;
        stack[sp++] = (uint32_t)root;
        on_stack[root] = 1;
        while (1) {
            uint32_t v = call[depth];
            if (edge[depth] < g->out_start[v + 1]) {
                uint32_t w = g->arcs[edge[depth]++].to;
                if (released[w]) {
                    continue;
                }
                if (index[w] == OK_UNSEEN) {
                    depth++;
                    call[depth] = w;
                    edge[depth] = g->out_start[w];
                    index[w] = low[w] = next_index++;
                    stack[sp++] = w;
                    on_stack[w] = 1;
                } else if (on_stack[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            if (low[v] == index[v]) {
                uint32_t w;
                do {
                    w = stack[--sp];
                    on_stack[w] = 0;
                    comp[w] = n_comp;
                } while (w != v);
                n_comp++;
            }
            if (depth == 0) {
                break;
            }
            depth--;
            if (low[v] < low[call[depth]]) {
                low[call[depth]] = low[v];
            }
        }
    }
    /* A component is a sink when no arc leaves it towards another deadlocked node. */
    uint8_t *not_sink = calloc(n_comp ? n_comp : 1, 1);
    if (!not_sink) {
        goto out;
    }
    for (size_t v = 0; v < n; v++) {
        if (released[v]) {
            continue;
        }
        for (uint32_t i = g->out_start[v]; i < g->out_start[v + 1]; i++) {
            uint32_t w = g->arcs[i].to;
            if (!released[w] && comp[w] != comp[v]) {
                not_sink[comp[v]] = 1;
            }
        }
    }
    *n_knots = 0;
    for (uint32_t c = 0; c < n_comp; c++) {
        *n_knots += !not_sink[c];
    }
    for (size_t v = 0; v < n; v++) {
        int in = !released[v] && !not_sink[comp[v]];
        status[v] = released[v] ? OR_KNOT_RELEASED : in ? OR_KNOT_IN_KNOT : OR_KNOT_WAITING;
        g->nodes[v].in_knot = (uint8_t)in;
    }
    free(not_sink);
    rc = MG_ERROR_OK;
out:
    free(index), free(low), free(stack), free(call), free(edge), free(comp), free(on_stack);
    return rc;
}

int or_knot_analyze(wait_graph *g, or_knot_result *result)
{
    memset(result, 0, sizeof *result);
    if (!g || !g->out_start) {
        return MG_ERROR_EINVAL;
    }
    uint8_t *released = malloc(g->n_nodes ? g->n_nodes : 1);
    result->status = malloc(g->n_nodes ? g->n_nodes : 1);
    long n_released = released && result->status ? release(g, released) : -1;
    int rc = n_released < 0 ? MG_ERROR_ENOMEM
                            : knots(g, released, result->status, &result->n_knots);
    if (rc == MG_ERROR_OK) {
        result->n_deadlocked = g->n_nodes - (size_t)n_released;
        for (size_t v = 0; v < g->n_nodes; v++) {
            result->n_in_knot += result->status[v] == OR_KNOT_IN_KNOT;
        }
    } else {
        or_knot_result_free(result);
    }
    free(released);
    return rc;
}
