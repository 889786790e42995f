/* The protection path of one intercepted collective: describe it for the engine, run Detectors D,
 * G and X, agree on the verdict and plan across the ranks where they see different arguments
 * (Gatherv/Scatterv: the root's vectors; Alltoallv: each rank's own) with small control messages on
 * the module's private duplicate, and execute the plan (docs/collectives.md). Needs mpi.h. */
#ifndef MG_PROTECT_RUN_H
#define MG_PROTECT_RUN_H

#include "protect_call.h"
#include "scaling_choice.h"

/* The module's settings, fixed at init. */
typedef struct protect_config {
    scaling_bounds bounds[2]; /* [0] blocking forms, [1] nonblocking forms */
    scaling_bounds large[2];  /* where the tester found the `_c` forms failing: bounds W3 */
    scaling_params params;
    scaling_workaround force; /* SCALING_WA_NONE: choose by cost */
} protect_config;

extern protect_config protect_cfg;

/* Protects pc. Returns 1 when the module ran the call itself (its MPI return code in *rc), 0 when
 * the caller must pass the call to MPI unchanged (no trigger, a user error, or a call the module
 * cannot protect; the latter two are logged once per call site). pc->a.count and the vectors are
 * filled by the caller; nprocs, rank, type_size and in_place are filled here. */
int protect_run(protect_call *pc, int *rc);

#endif
