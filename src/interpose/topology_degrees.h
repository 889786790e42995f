/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* How many neighbours a communicator's process topology gives the calling rank: the lengths of the
 * per-neighbour arrays of the neighbourhood collectives (MPI 3.1 §7.6), which the capture module
 * checks and the Fortran entries convert. Needs mpi.h. */
#ifndef MG_TOPOLOGY_DEGREES_H
#define MG_TOPOLOGY_DEGREES_H

#include <mpi.h>
#include "mpi_handles_weak.h"

/* 1 when comm has a Cartesian, graph or distributed-graph topology, with the number of ranks the
 * caller receives from in *in and sends to in *out (a Cartesian dimension counts its two
 * neighbours, MPI_PROC_NULL ones too); 0, both 0, when comm is MPI_COMM_NULL, has no topology
 * (the neighbourhood collectives then fail with MPI_ERR_TOPOLOGY) or MPI could not say. comm must
 * not be a freed handle. Local calls of MPI only; no allocation. */
int topology_degrees(MPI_Comm comm, int *in, int *out);

#endif
