/* The AND⊕OR wait-for graph (paper §3.2, Definition 1): nodes are processes and the intermediate
 * nodes the AND-OR translation adds (paper §4.1: request nodes of Waitall/Waitany, a shared
 * "any source of comm" node, a shared collective node); each node has one semantic, AND or OR, for
 * all its outgoing arcs. Built on demand only (paper §5.2), returned to callers as data so they
 * can render DOT. Spec: docs/design/check-detector.md §7. */
#ifndef WAIT_GRAPH_H
#define WAIT_GRAPH_H

#include <stddef.h>
#include <stdint.h>

enum wait_graph_node_type {
    WAIT_GRAPH_PROCESS = 1, /* an MPI process: rank */
    WAIT_GRAPH_REQUEST, /* a request of a multi-completion (Waitall/Waitany/...): rank, aux=request
                           id */
    WAIT_GRAPH_ANY_SOURCE, /* "a message from any member of comm" (wildcard receive) */
    WAIT_GRAPH_COLLECTIVE  /* "every missing member of slot aux of comm" (collective call) */
};

enum wait_graph_semantic { WAIT_GRAPH_AND = 0, WAIT_GRAPH_OR = 1 };

enum wait_graph_state {
    WAIT_GRAPH_BLOCKED = 0, /* waits according to its arcs */
    WAIT_GRAPH_RUNNING,     /* a process that is not blocked: releases its waiters */
    WAIT_GRAPH_TERMINATED   /* a process that finalized, aborted or vanished: releases nobody */
};

typedef struct wait_graph_node {
    uint8_t type;    /* wait_graph_node_type */
    uint8_t sem;     /* wait_graph_semantic of the outgoing arcs */
    uint8_t state;   /* wait_graph_state (intermediate nodes are WAIT_GRAPH_BLOCKED) */
    uint8_t in_knot; /* set by or_knot_analyze */
    /* process: its blocked (or terminal) call; request: the receive; collective: the call */
    uint16_t func;
    int32_t rank;      /* process / owner of a request; -1 otherwise */
    int32_t peer;      /* process: peer of the blocked call */
    int32_t tag;       /* process: tag of the blocked call; request: tag of the receive */
    uint64_t comm;     /* communicator id (request, any-source, collective, process call) */
    uint64_t aux;      /* request id (request), slot number (collective) */
    uint64_t callsite; /* process: call site of the blocked call; request: of the receive */
} wait_graph_node;

typedef struct wait_graph_arc {
    uint32_t from, to;
} wait_graph_arc;

typedef struct wait_graph {
    wait_graph_node *nodes;
    size_t n_nodes, cap_nodes;
    wait_graph_arc *arcs; /* sorted by `from` after wait_graph_finish */
    size_t n_arcs, cap_arcs;
    uint32_t *out_start; /* n_nodes + 1 offsets into arcs, after wait_graph_finish */
} wait_graph;

void wait_graph_init(wait_graph *g);
void wait_graph_free(wait_graph *g);
/* Appends a node; *id gets its index. Errors: MG_ERROR_ENOMEM, MG_ERROR_ERANGE (2^32 - 1 nodes). */
int wait_graph_add_node(wait_graph *g, const wait_graph_node *node, uint32_t *id);
/* Appends an arc whose type is the semantic of `from`. Errors: MG_ERROR_EINVAL, MG_ERROR_ENOMEM. */
int wait_graph_add_arc(wait_graph *g, uint32_t from, uint32_t to);
/* Removes the intermediate nodes with exactly one incoming and one outgoing arc (paper §4.2,
 * Fig. 6c), renumbering the others in order, then sorts the arcs and builds out_start. Process
 * nodes are never removed, so node i stays process i when processes were added first.
 * Errors: MG_ERROR_ENOMEM (the graph is then unusable: free it). */
int wait_graph_finish(wait_graph *g);
/* 1 when arc i is an OR arc. */
int wait_graph_arc_is_or(const wait_graph *g, size_t arc);
/* Copies the nodes with keep[i] != 0 and the arcs between them into *dst (finished), numbering
 * them in order. Errors: MG_ERROR_ENOMEM (dst left empty). */
int wait_graph_subgraph(const wait_graph *g, const uint8_t *keep, wait_graph *dst);

#endif
