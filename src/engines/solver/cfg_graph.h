/* The static control-flow graph of an instrumented program, as the CFG-directed search needs it
 * (docs/design/concolic-solver.md §7; spec: dissertation §2.2.2, CREST's CFG strategy): nodes are
 * basic blocks (split at calls into the program's own functions), edges are the block graph plus
 * call and return edges, and every branch arm names the node(s) taking it leads to. mpiguard-cc
 * builds it from the linked module; the driver reads it back (cfg_graph_text.h) and derives
 * distances (cfg_distance.h). Data only: no files, no LLVM here. */
#ifndef CFG_GRAPH_H
#define CFG_GRAPH_H

#include <stddef.h>
#include <stdint.h>

/* Limits of a graph the parser accepts (a branch table of 2^24 ids is far past any program). */
#define CFG_GRAPH_MAX_NODES (1u << 26)
#define CFG_GRAPH_MAX_BRANCHES (1u << 24)

typedef struct cfg_graph_pair {
    uint32_t a, b;
} cfg_graph_pair;

/* Owns every array. Filled with cfg_graph_create, cfg_graph_set_branch, cfg_graph_add_edge and
 * cfg_graph_add_target, then cfg_graph_index builds the adjacency the queries read. */
typedef struct cfg_graph {
    uint64_t build_id;
    uint32_t nnodes, nbranches;
    uint32_t *branch_node; /* [nbranches]: the node whose end holds the branch (a switch's case
                              ids all share the switch's node) */
    cfg_graph_pair *edges; /* (from, to), sorted and without duplicates once indexed */
    uint32_t nedges;
    size_t edges_cap;
    cfg_graph_pair *targets; /* (arm, node): taking the arm leads to the node; a switch case's false
                          arm has several (the default and the other cases' blocks) */
    uint32_t ntargets;
    size_t targets_cap;
    /* Built by cfg_graph_index (compressed rows): node n's successors are
     * succ[succ_at[n] .. succ_at[n + 1]), its predecessors likewise, arm a's target nodes
     * arm_to[arm_at[a] .. arm_at[a + 1]). */
    uint32_t *succ_at, *succ, *pred_at, *pred, *arm_at, *arm_to;
} cfg_graph;

/* An empty graph of nnodes nodes and nbranches branches (no branch placed yet). MG_ERROR_EINVAL
 * past the limits, MG_ERROR_ENOMEM (g is then empty: cfg_graph_free is still safe). */
int cfg_graph_create(cfg_graph *g, uint64_t build_id, uint32_t nnodes, uint32_t nbranches);
/* Places branch at node. MG_ERROR_EINVAL for an id out of range. */
int cfg_graph_set_branch(cfg_graph *g, uint32_t branch, uint32_t node);
/* Adds the edge from -> to (duplicates are merged by cfg_graph_index). MG_ERROR_EINVAL,
 * MG_ERROR_ENOMEM (the graph is unchanged). */
int cfg_graph_add_edge(cfg_graph *g, uint32_t from, uint32_t to);
/* Adds node to the targets of arm (coverage_arm(branch, taken)). MG_ERROR_EINVAL, MG_ERROR_ENOMEM.
 */
int cfg_graph_add_target(cfg_graph *g, uint32_t arm, uint32_t node);
/* Sorts and merges the edges and targets and builds the adjacency. MG_ERROR_EFORMAT when a branch
 * has no node or an arm has no target (the graph does not describe the branch table),
 * MG_ERROR_ENOMEM (the graph keeps its lists and may be indexed again). */
int cfg_graph_index(cfg_graph *g);
/* Frees every array; a zeroed or freed graph may be freed again. */
void cfg_graph_free(cfg_graph *g);

#endif
