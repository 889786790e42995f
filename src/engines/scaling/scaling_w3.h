/* Workaround W3 (ours): the MPI-4 large-count `_c` form of the same collective, called with
 * MPI_Count counts and MPI_Aint displacements, the recovered 64-bit ones where Detector D fired
 * (docs/collectives-engine.md §4.4). It applies where the library has the `_c` collectives (MPICH
 * 4, not Open MPI 4.1) and the tester found this collective's `_c` form sound past the bound. */
#ifndef SCALING_W3_H
#define SCALING_W3_H

#include <stdint.h>

#include "scaling_args.h"

/* Writes this rank's vectors widened to 64 bits (MPI_Count/MPI_Aint on LP64) into the caller's
 * arrays of P entries: vector A into counts_a/displs_a and, for Alltoallv, vector B into
 * counts_b/displs_b; the displacements are true_a/true_b where given (Detector D recovered them),
 * else the application's. Nothing is written on a rank without vectors (its scalar count is
 * a->count) or for a vector the collective lacks (Reduce_scatter has no displacements; an in-place
 * Alltoallv no send vector). Returns 0, or MG_ERROR_EINVAL for bad arguments or a missing output
 * array.
 */
int scaling_w3_vectors(const scaling_args *a, const int64_t *true_a, const int64_t *true_b,
                       int64_t *counts_a, int64_t *displs_a, int64_t *counts_b, int64_t *displs_b);

#endif
