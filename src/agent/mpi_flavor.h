/* Which MPI ABI a launcher or an application belongs to: it decides which build of the
 * interposition library the job gets (docs/architecture.md, "Choosing the library"). */
#ifndef MG_AGENT_MPI_FLAVOR_H
#define MG_AGENT_MPI_FLAVOR_H

#include <stddef.h>

#include "mg_mpi_flavor.h"

/* Reads the ELF dynamic section of the executable at path and returns the flavour of the MPI
 * library it links (libmpi.so.40 and other libmpi.so.N: Open MPI; libmpich.so.*, libmpi.so.12:
 * MPICH). *out is MG_MPI_FLAVOR_UNKNOWN when it links neither or is not an ELF file (a script).
 * Returns MG_ERROR_ENOENT when the file cannot be opened. */
int mpi_flavor_of_binary(const char *path, mg_mpi_flavor *out);

/* How the executable at path was linked, for telling why a rank shows no MPI library: *is_static
 * when it has no ELF interpreter (the dynamic loader never runs, so LD_PRELOAD is ignored), and
 * *defines_mpi when its own symbol tables define MPI_Init or PMPI_Init (an MPI linked into it).
 * Both 0 for a file that is not ELF. Returns MG_ERROR_ENOENT when the file cannot be opened. */
int mpi_flavor_linkage(const char *path, int *is_static, int *defines_mpi);

/* Same question for a shared-object soname or path as found in /proc/PID/maps. */
mg_mpi_flavor mpi_flavor_of_library(const char *name);

#endif
