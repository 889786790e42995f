/* The deadlock detector's settings (deadlock_detector.h), apart so that the detector's own parts
 * (detector_state.h) need not include its public front. docs/design/check-detector.md §5. */
#ifndef DL_PARAMS_H
#define DL_PARAMS_H

#include <stddef.h>
#include <stdint.h>

typedef struct dl_params {
    /* 1 treats standard-mode sends as buffered (they never block). Default 0: unbuffered, so a
     * send-send cycle is reported (as a potential deadlock when buffering hid it). */
    int buffered_standard_sends;
    /* A wildcard receive on a communicator of at most this many members gets its own OR arcs
     * to each member (paper Fig. 7); larger ones share one "any source" node per communicator,
     * which keeps the graph O(P) when 10^5 processes wait on wildcards. Default 64. */
    uint32_t inline_or_max;
    /* 1 explores the matches of undecided wildcard receives when a check finds no deadlock
     * (paper §6.1). Default 1. */
    int probing;
    /* Alternative matches explored per check (each costs a copy of the detector state). Default 64.
     */
    uint32_t probe_budget;
    /* Nested wildcard decisions explored in one probe. Default 4. */
    uint32_t probe_depth;
    /* Candidate sources tried per wildcard. Default 16. */
    uint32_t probe_candidates;
    /* 1 forces a wildcard decision when held records exceed decide_backlog (paper §6.2). Default 1.
     */
    int deciding;
    /* Held records (records of model-blocked ranks) that trigger deciding. Default 1 << 20. */
    size_t decide_backlog;
    /* Rounds of releasing buffered standard sends per check. Default 16. */
    uint32_t release_rounds;
    /* Ranks listed in one collective-mismatch finding. Default 64. */
    uint32_t mismatch_ranks;
} dl_params;

/* Fills the documented defaults. */
void dl_params_default(dl_params *p);

#endif
