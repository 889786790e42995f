/* The version of the installed MPI library of a flavour, asked from the library itself
 * (MPI_Get_library_version may be called before MPI_Init), so a safe-bounds file measured on
 * another version is refused before a job starts; and whether it has the MPI-4 large-count
 * collectives (workaround W3). */
#ifndef MG_MPI_VERSION_H
#define MG_MPI_VERSION_H

#include <stddef.h>

#include "mpi_flavor.h"

/* Writes "4.1.4" (Open MPI) or "4.0.2" (MPICH) into out. Returns 0, MG_ERROR_ENOENT when the
 * library cannot be loaded, MG_ERROR_EFORMAT when its version text is not understood. */
int mpi_version_of(mg_mpi_flavor flavor, char *out, size_t len);

/* Sets *count to how many of the 24 large-count collectives of Table V (PMPI_Gatherv_c,
 * PMPI_Igatherv_c, ...) the installed library of the flavour has: 24 for MPICH 4.0.2, 0 for
 * Open MPI 4.1.4. Returns 0, or MG_ERROR_ENOENT when the library cannot be loaded. */
int mpi_large_count_of(mg_mpi_flavor flavor, int *count);

#endif
