/* Internal to src/engines/solver: no other folder includes it (docs/architecture.md). */
/* Conflict resolution among rank variables (§2.3.3, the most up-to-date value wins) and the next
 * run's process count and focus rank (§2.3.4) (docs/design/concolic-solver.md §6). */
#ifndef FOCUS_SELECT_H
#define FOCUS_SELECT_H

#include <stdint.h>

#include "sym_var.h"

typedef struct focus_select_setup {
    uint32_t np;    /* processes to launch */
    uint32_t focus; /* global rank that runs the heavy (symbolic) binary */
} focus_select_setup;

/* Given the variables of the last run (vars[i].value: the values it used) and the solved next
 * values (values[i], nvars entries), decides the next launch and rewrites the rank variables in
 * values so they all denote that focus:
 *  - np is the new world-size value (all world sizes are equal by construction), else prev->np;
 *  - the focus is the new value of a changed world rank; else the global rank that a changed
 *    communicator rank maps to through that communicator's local-to-global map (the lowest
 *    variable id wins when several changed, as only one was the negation's target); else
 *    prev->focus;
 *  - a focus at or past np falls back to rank 0 (a stale rank cannot name a process);
 *  - every world rank is set to the focus and every communicator rank to the focus's local rank
 *    in that communicator when the focus is a member (left as solved otherwise).
 * *solved (may be NULL) receives 1 when a changed rank variable named the focus, 0 when the
 * focus is prev's or the fallback 0: the solution leaves it free (focus_frontier.h).
 * MG_ERROR_EINVAL for NULL arguments, a communicator rank whose comm index is past ncomms, or a new
 * world size outside [1, UINT32_MAX]; MG_ERROR_ERANGE when a changed communicator rank is past its
 * map (values are then unchanged). */
int focus_select(const sym_var *vars, uint32_t nvars, const sym_var_comm *comms, uint32_t ncomms,
                 const focus_select_setup *prev, int64_t *values, focus_select_setup *next,
                 int *solved);

#endif
