/* The inside of a search_state, shared by the strategies (search.c) and the snapshot
 * that saves and restores them (search_snapshot.c). Not for other modules. */
#ifndef SEARCH_INTERNAL_H
#define SEARCH_INTERNAL_H

#include "search.h"

/* Folded loop exits negated in a row without new coverage before the next is not (DFS; its
 * tried notes, search.c, go up to 3 times this). */
#define SEARCH_INTERNAL_FOLD_BARREN 2

/* A path observed at one depth of the DFS stack, with the next constraint to try on it. */
typedef struct search_internal_level {
    search_step *path;
    uint8_t *tried; /* random and CFG strategies: constraints already chosen on this path */
    uint32_t n, next;
} search_internal_level;

struct search_state {
    search_params p;
    search_internal_level *levels;
    uint32_t depth;
    size_t cap;
    int pending; /* the last search_next returned a choice not yet followed by a run */
    uint32_t pending_index;
    uint32_t runs;    /* paths observed */
    uint32_t longest; /* longest path seen in phase one */
    uint32_t bound;   /* 0: unbounded */
};

#endif
