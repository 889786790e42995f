/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* Whether the mpi.h this build compiles against declares the MPI-4 large-count collectives
 * (MPI_Gatherv_c, MPI_Igatherv_c, ...): MG_MPI_LARGE_COUNT is 1 or 0. MPI-4.0 requires the `_c`
 * binding of every collective, so an mpi.h of MPI_VERSION 4 or later declares them (MPICH 4.0.2)
 * and an older one does not (Open MPI 4.1.4 says 3); the collectives tester decides the same way.
 * -DMG_MPI_LARGE_COUNT=0 (or 1) overrides. Where it is 0 the interposition library has no `_c`
 * wrapper at all (docs/design/collectives.md, "The application's `_c` calls"). Needs mpi.h. */
#ifndef MG_MPI_LARGE_COUNT_H
#define MG_MPI_LARGE_COUNT_H

#include <mpi.h>

#ifndef MG_MPI_LARGE_COUNT
#if MPI_VERSION >= 4
#define MG_MPI_LARGE_COUNT 1
#else
#define MG_MPI_LARGE_COUNT 0
#endif
#endif

#endif
