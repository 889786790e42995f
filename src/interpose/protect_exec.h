/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* Executing a chosen workaround plan with PMPI: W1-B's rounds (staging where the plan stages,
 * packs, calls the collective or the V-form the plan names, with the block-strided types it asks
 * for, unpacks), W1-A's group calls on cached group communicators, W2's call with a contiguous big
 * datatype, W3's `_c` call (docs/design/collectives.md, "The protection module";
 * docs/collectives-engine.md §4). Needs mpi.h. */
#ifndef MG_PROTECT_EXEC_H
#define MG_PROTECT_EXEC_H

#include "protect_call.h"
#include "protect_comm.h"
#include "scaling_choice.h"

/* A plan every rank of the call agreed on, and what this rank knows of the layout. */
typedef struct protect_exec_plan {
    scaling_choice_workaround w;
    scaling_w1b_plan w1b;
    scaling_w1a_plan w1a;
    scaling_w2_plan w2;
    const int64_t *true_a, *true_b; /* recovered displacements where Detector D fired here */
} protect_exec_plan;

/* Runs plan for pc. W2 and W3 keep a nonblocking call nonblocking (*request is the library's
 * request; their count/displacement arrays are kept until it completes, protect_pending.h); W1-A
 * and W1-B run their calls to completion and hand the application an already complete request
 * (protect_exec_eager). Allocates only here, after a detector fired: vectors, freed before return
 * except those a pending nonblocking call still needs, and W1-B's staging buffers, kept for the
 * next call. Returns the first MPI error code of the plan's calls, MPI_SUCCESS, or MPI_ERR_NO_MEM
 * when a buffer could not be allocated (no rank has started a plan call then only if all failed
 * alike). */
int protect_exec(const protect_call *pc, protect_comm *pcomm, const protect_exec_plan *plan);

/* Whether protect_exec completes pc, a nonblocking call, before it returns: W1-A and W1-B. */
int protect_exec_eager(const protect_call *pc, const protect_exec_plan *plan);

/* Releases the staging buffers W1-B keeps between calls (at MPI_Finalize). */
void protect_exec_finalize(void);

#endif
