/* Distances over the static control-flow graph for the CFG-directed search
 * (docs/design/concolic-solver.md §7; dissertation §2.2.2, CREST's CFG strategy: prefer the
 * negation whose new arm is closest to a branch arm not covered yet). Distances count graph edges,
 * all of weight 1: a block-to-block edge, a call into a callee's entry, a return to the block after
 * a call site, and taking an arm. Pure functions over an indexed cfg_graph; breadth-first searches,
 * O(nodes + edges). */
#ifndef CFG_DISTANCE_H
#define CFG_DISTANCE_H

#include <stddef.h>
#include <stdint.h>

#include "cfg_graph.h"
#include "coverage_set.h"

/* The table SEARCH_CFG reads, for the current coverage: dist[arm] (arm < n, n at least
 * 2 * g->nbranches; entries past that are UINT32_MAX) is 0 for an uncovered arm; for a covered
 * one, the edges from taking it up to and including taking the nearest uncovered arm
 * (1 + the hops from the arm's target to that arm's branch); UINT32_MAX when no uncovered arm is
 * reachable. Recompute whenever coverage grows. MG_ERROR_EINVAL (NULL, n too small, g not indexed),
 * MG_ERROR_ENOMEM (dist unchanged). */
int cfg_distance_to_uncovered(const cfg_graph *g, const coverage_set *cov, uint32_t *dist,
                              size_t n);

/* The static pairwise table, one row: hops[b] (b < g->nbranches) is the number of edges from
 * the node(s) taking `arm` leads to, to branch b's node (0 when the arm leads straight to it);
 * UINT32_MAX when unreachable. MG_ERROR_EINVAL (arm out of range, g not indexed), MG_ERROR_ENOMEM.
 */
int cfg_distance_from_arm(const cfg_graph *g, uint32_t arm, uint32_t *hops);

#endif
