/* Workaround W1-A, process partitioning: the collective is run once per group of consecutive ranks,
 * the root in every group, each group small enough for the bound and, for irregular collectives,
 * spanning at most INT_MAX elements of the global buffer so that its displacements (Eq. 4.24) fit
 * in int (docs/collectives-engine.md §4.3; dissertation §4.4.1, Figures 4.4-4.5). Not for
 * Alltoall(v), Allgather (its counts cannot differ per rank) or the reductions. */
#ifndef SCALING_W1A_H
#define SCALING_W1A_H

#include <stdint.h>

#include "scaling_args.h"
#include "scaling_bounds.h"

typedef struct scaling_w1a_plan {
    uint32_t ngroups;
    const uint32_t *starts; /* caller memory: group g holds the ranks [starts[g], starts[g+1]) (plus
                               the root); ngroups + 1 entries used */
} scaling_w1a_plan;

/* Partitions the ranks greedily into the fewest consecutive groups that satisfy the safe count of b
 * at the group's size and (irregular) the INT_MAX span. Needs the full view: the root for
 * Gatherv/Scatterv (the other ranks receive starts from it), any rank otherwise. starts is caller
 * memory of P + 1 entries. true_a as from Detector D (NULL: the application's displacements).
 * A group's size for the bound counts the ranks that move data (Figure 4.4): a root outside the
 * range moves nothing in Gather(v)/Scatter(v) but is Bcast's source.
 * Returns 0; MG_ERROR_EUNSUPPORTED when W1-A does not apply to the collective, when a count is past
 * INT_MAX (a large-count call: a group call's counts are ints), or when even a group of one rank
 * breaks the bound, which is the case for Type-2 forms (no P in the form); MG_ERROR_EINVAL for bad
 * arguments or a rank without the vectors. No allocation; O(P) bound lookups. */
int scaling_w1a_plan_make(const scaling_bounds *b, const scaling_args *a, const int64_t *true_a,
                          uint32_t *starts, scaling_w1a_plan *out);

/* Group g: its members (world ranks, in the order of the group communicator the caller creates,
 * e.g. MPI_Comm_split with key = position) into members (P entries), their number, whether this
 * rank is one of them, and this rank's call in it (call->root is the root's position in the group;
 * the vectors, at the group's root or everywhere for Allgatherv, are written to the caller's arrays
 * of P ints). For Allgatherv every rank is a member of every group and only the group's ranks
 * contribute. A root outside a group's range takes part with nothing to send or receive
 * (MPI_IN_PLACE for the regular forms, whose slot in the group layout is then never touched).
 * Returns 0, or MG_ERROR_EINVAL for bad arguments or g >= ngroups. No allocation. */
int scaling_w1a_group(const scaling_w1a_plan *plan, const scaling_args *a, const int64_t *true_a,
                      uint32_t g, uint32_t *members, uint32_t *nmembers, int *member,
                      scaling_args_call *call);

#endif
