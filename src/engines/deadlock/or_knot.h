/* Internal to src/engines/deadlock: no other folder includes it (docs/architecture.md). */
/* The deadlock criterion on an AND⊕OR wait-for graph (paper §4.3): which nodes can never be
 * released, and which of them form OR-knots (the root of the deadlock, as opposed to processes
 * merely waiting for it). Spec: docs/design/check-detector.md §8. */
#ifndef OR_KNOT_H
#define OR_KNOT_H

#include <stddef.h>
#include <stdint.h>

#include "wait_graph.h"

enum or_knot_status {
    OR_KNOT_RELEASED = 0, /* can still complete */
    OR_KNOT_WAITING,      /* deadlocked, waiting for a knot */
    OR_KNOT_IN_KNOT       /* deadlocked, member of an OR-knot */
};

typedef struct or_knot_result {
    uint8_t *status;     /* per node: or_knot_status (owned; or_knot_result_free) */
    size_t n_deadlocked; /* nodes not released (waiting + in knot) */
    size_t n_in_knot;
    size_t n_knots;
} or_knot_result;

/* Analyses a finished graph (wait_graph_finish). Release propagates backwards from running
 * processes (an AND node needs all its successors released, an OR node one); terminated processes
 * never release. The nodes left are deadlocked; the sink strongly connected components among them
 * are the OR-knots (each node reaches every other, no OR arc leaves). O(V + E), iterative.
 * Sets g->nodes[i].in_knot. Errors: MG_ERROR_EINVAL (NULL or unfinished graph), MG_ERROR_ENOMEM
 * (result empty). */
int or_knot_analyze(wait_graph *g, or_knot_result *result);
void or_knot_result_free(or_knot_result *result);

#endif
