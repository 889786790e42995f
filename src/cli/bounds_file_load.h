/* Internal to src/cli: no other folder includes it (docs/architecture.md). */
/* The safe-bounds file as the tools load it: the codec's reading (src/wire/bounds_file.h), its
 * names checked by the scaling engine, and its MPI checked against the installed one. */
#ifndef MG_BOUNDS_FILE_LOAD_H
#define MG_BOUNDS_FILE_LOAD_H

#include "bounds_file.h"
#include "mpi_flavor.h"

/* bounds_file_read of a file that must have been measured on the installed library of flavor
 * (its flavour and version; not checked for MG_MPI_FLAVOR_UNKNOWN), with a collective and a form
 * the scaling engine knows in every entry. Returns 0, or an exit status after saying why, with
 * nothing left to free: 66 (MG_EXIT_NOINPUT) missing or unreadable, 65 (MG_EXIT_DATAERR)
 * malformed or measured on another MPI or version. */
int bounds_file_load(const char *path, mg_mpi_flavor flavor, bounds_file_doc *d);

#endif
