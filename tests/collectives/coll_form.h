/* The form a test program of this directory is built in: the int-count collectives (MPI_Gatherv),
 * or, compiled with COLL_LARGE, the MPI-4 large-count ones (MPI_Gatherv_c) with MPI_Count counts
 * and MPI_Aint displacements. FORM(MPI_Gatherv) names the call in this build's form, FORM_SUFFIX
 * is "" or "_c". A program built with COLL_LARGE against an MPI without the `_c` collectives
 * (MPI_VERSION < 4) checks COLL_NO_LARGE, says so and exits 77. */
#ifndef COLL_FORM_H
#define COLL_FORM_H

#include <mpi.h>

#if defined(COLL_LARGE) && MPI_VERSION < 4
#define COLL_NO_LARGE 1
#define FORM_SUFFIX "_c"
#elif defined(COLL_LARGE)
#define FORM(name) name##_c
#define FORM_SUFFIX "_c"
typedef MPI_Count count_t;
typedef MPI_Aint displ_t;
#else
#define FORM(name) name
#define FORM_SUFFIX ""
typedef int count_t;
typedef int displ_t;
#endif

#endif
