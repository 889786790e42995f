/* The version of the installed MPI library of a flavour, asked from the library itself
 * (MPI_Get_library_version may be called before MPI_Init), so a safe-bounds file measured on
 * another version is refused before a job starts. */
#ifndef MG_MPI_VERSION_H
#define MG_MPI_VERSION_H

#include <stddef.h>

#include "mpi_flavor.h"

/* Writes "4.1.4" (Open MPI) or "4.0.2" (MPICH) into out. Returns 0, MG_ENOENT when the library
 * cannot be loaded, MG_EFORMAT when its version text is not understood. */
int mpi_version_of(mg_mpi_flavor flavor, char *out, size_t len);

#endif
