/* The next focus when the solution leaves it free (docs/design/concolic-solver.md §6.1): a rank
 * that reaches the coverage frontier that no heavy run on it has examined. An arm is on the
 * frontier when it is covered and its sibling (the branch's other arm) is not; only a heavy run on
 * a rank that reaches the arm logs its branch, so only such a run lets the search negate it. COMPI
 * (dissertation §2.3.4) takes the focus from the solution; when the solution does not name a
 * rank, it keeps the old one, which can leave a rank's own code (a root's report) unexplored. */
#ifndef FOCUS_FRONTIER_H
#define FOCUS_FRONTIER_H

#include <stdint.h>

#include "coverage_set.h"

/* What each global rank has reached, over the campaign. A zeroed struct is empty; it owns its
 * arrays. */
typedef struct focus_frontier {
    coverage_set *reached;  /* [rank]: the arms it covered in some run */
    coverage_set *examined; /* [rank]: the arms it covered in a run where it was the focus */
    uint32_t nranks;
} focus_frontier;

void focus_frontier_free(focus_frontier *f);

/* Records the arms rank covered in one run; was_focus: it ran the heavy build (its branches are
 * in the path the search has). MG_ERROR_ENOMEM leaves the record of that rank partly merged (a set
 * is never damaged: each merge is all or nothing). */
int focus_frontier_observe(focus_frontier *f, uint32_t rank, const coverage_set *arms,
                           int was_focus);

/* How many frontier arms (against covered, the campaign's coverage) rank reached but never
 * covered as the focus. 0 for a rank never seen. */
uint32_t focus_frontier_score(const focus_frontier *f, const coverage_set *covered, uint32_t rank);

/* Among ranks 0..np-1, the one with the highest score; ties keep prev when it is one of them,
 * else the lowest rank. A focus that scores 0 everywhere stays prev (0 when prev >= np). */
uint32_t focus_frontier_pick(const focus_frontier *f, const coverage_set *covered, uint32_t np,
                             uint32_t prev);

#endif
