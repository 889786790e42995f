/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The protection path of one intercepted collective: describe it for the engine, run Detectors D,
 * G and X, choose and execute the plan (docs/design/collectives.md). Where the ranks see different
 * arguments (Gatherv/Scatterv: the root's vectors; Alltoallv: each rank's own) a rank changes its
 * own side alone by W2; only under --agree do they agree on the verdict and plan, with small
 * control messages on the module's private duplicate. Needs mpi.h. */
#ifndef MG_PROTECT_RUN_H
#define MG_PROTECT_RUN_H

#include "protect_call.h"
#include "protect_comm.h"
#include "scaling_check.h"
#include "scaling_choice.h"

/* The module's settings, fixed at init. */
typedef struct protect_run_config {
    /* [large][in_place][nonblocking] (protect_bounds_load): the `_c` tables bound the
     * application's `_c` calls and W3 */
    scaling_bounds tables[2][2][2];
    scaling_params params;
    scaling_choice_workaround force; /* SCALING_CHOICE_WA_NONE: choose by cost */
    /* Gatherv, Scatterv and Alltoallv agree on each call's plan (a control message per call), so
     * that W1-A, W1-B and W3, which change every rank's side, can serve them; otherwise only W2,
     * which one rank applies to its own side alone, does. */
    int agree;
    /* [large][nonblocking]: bit 1u << coll where a detector can fire whatever the arguments say
     * (protect_run_watch_setup); a call of another collective passes at once, on every rank. */
    uint32_t watched[2][2];
} protect_run_config;

extern protect_run_config protect_run_cfg;

/* Fills protect_run_cfg.watched from the tables and the library's `_c` functions; after both are
 * loaded. */
void protect_run_watch_setup(void);

/* Whether protect_run can do anything for a call of this form: the entry points' first test, made
 * before the call is described. */
static inline int protect_watched(scaling_coll coll, int large, int nonblocking)
{
    return (protect_run_cfg.watched[large][nonblocking] >> coll) & 1u;
}

/* Whether a call of an int irregular collective certainly passes unchanged, judged from its raw
 * arguments before it is described: a form in protect_comm_hot.vectors_only, and a Gatherv/Scatterv
 * non-root (MPI reads a non-root's vectors nowhere; only the root changes its side, by W2), or a
 * rank whose significant vectors hold nothing negative (scaling_check_plain); a call on an
 * intercommunicator passes too, as protect_run would pass it. A communicator other than the one
 * this thread looked up last (and MPI_COMM_NULL) goes to protect_run, whose lookup makes the next
 * call on it pass here. The entry points' second test: most calls of a correct program end here,
 * without the call's record (protect_call) or the datatype sizes. Inline, with coll a constant in
 * each entry point, and calling nothing, so that the path is a few loads, one pass over the vectors
 * and a tail call (docs/collectives-measurements.md, "Cost when no detector fires").
 * in_place: the call's buffer argument is MPI_IN_PLACE. Returns 0 when protect_run must see the
 * call. */
static inline int protect_quick_pass(scaling_coll coll, int nonblocking, int in_place, int root,
                                     MPI_Comm comm, const int *counts_a, const int *displs_a,
                                     const int *counts_b, const int *displs_b)
{
    if (!((protect_comm_hot.vectors_only[nonblocking] >> coll) & 1u))
        return 0;
    const protect_comm_last *pcomm = protect_comm_remembered(comm);
    if (!pcomm)
        return 0;
    if (pcomm->inter)
        return 1;
    if ((coll == SCALING_COLL_GATHERV || coll == SCALING_COLL_SCATTERV) && pcomm->rank != root)
        return 1;
    return scaling_check_plain(coll, (uint32_t)pcomm->size, in_place, counts_a, displs_a, counts_b,
                               displs_b);
}

/* Protects pc, a call of a watched form (protect_watched). Returns 1 when the module ran the call
 * itself (its MPI return code in *rc), 0 when the caller must pass the call to MPI unchanged (no
 * trigger, a user error, or a call the module cannot protect; the latter two are logged once per
 * call site). pc->a.count and the vectors are filled by the caller; nprocs, rank, type_size and
 * in_place are filled here. */
int protect_run(protect_call *pc, int *rc);

#endif
