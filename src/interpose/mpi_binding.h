/* Internal to src/interpose: no other folder includes it (docs/architecture.md). */
/* The int and the MPI-4 large-count (`_c`) bindings of one MPI function differ only in the types
 * of their counts and displacements, and a nonblocking form only in its last parameter: a module
 * writes a hook once per argument shape with these macros and defines it for both families
 * (protect_entry.c, capture_p2p.c, capture_coll.c). F is INT (MPI_Gatherv) or LARGE
 * (MPI_Gatherv_c, only where MG_MPI_LARGE_COUNT); mode is B (blocking) or NB (nonblocking, the
 * request is the last parameter). Include in .c files only: the names are short on purpose, so
 * that a shape's parameter list still reads as MPI's. Needs mpi.h. */
#ifndef MG_MPI_BINDING_H
#define MG_MPI_BINDING_H

#include <mpi.h>

#include "mpi_large_count.h"

#define MG_MPI_BINDING_COUNT_INT int
#define MG_MPI_BINDING_DISPL_INT int
#if MG_MPI_LARGE_COUNT
#define MG_MPI_BINDING_COUNT_LARGE MPI_Count
#define MG_MPI_BINDING_DISPL_LARGE MPI_Aint
#endif
#define MG_MPI_BINDING_RQ_PARAM_B
#define MG_MPI_BINDING_RQ_PARAM_NB , MPI_Request *r
#define MG_MPI_BINDING_RQ_ARG_B
#define MG_MPI_BINDING_RQ_ARG_NB , r
#define MG_MPI_BINDING_RQ_B NULL
#define MG_MPI_BINDING_RQ_NB r

#endif
