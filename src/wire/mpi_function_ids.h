/* Function ids of the wrapped MPI functions, shared by the interposition library and the tools that
 * read what it publishes (the ids travel in shared memory and event records). One table for every
 * build: the large-count `_c` collectives have ids even in a build that does not wrap them. Needs
 * no mpi.h. */
#ifndef MG_MPI_FUNCTION_IDS_H
#define MG_MPI_FUNCTION_IDS_H

typedef enum mpi_function_ids_fn {
    MG_FN_NONE = 0,
#define MG_FN(name, params, args, cls) MG_FN_##name,
#define MG_FN_SPECIAL(name, cls) MG_FN_##name,
#define MG_FN_LARGE(name, params, args, cls) MG_FN_##name,
#include "mpi_functions.def"
#undef MG_FN
#undef MG_FN_SPECIAL
#undef MG_FN_LARGE
    MG_FN_COUNT
} mpi_function_ids_fn;

typedef enum mpi_function_ids_fn_class {
    MG_MPI_FUNCTION_IDS_CLASS_P2P,
    MG_MPI_FUNCTION_IDS_CLASS_PROBE,
    MG_MPI_FUNCTION_IDS_CLASS_COMPLETE,
    MG_MPI_FUNCTION_IDS_CLASS_POLL,
    MG_MPI_FUNCTION_IDS_CLASS_COLL,
    MG_MPI_FUNCTION_IDS_CLASS_ICOLL,
    MG_MPI_FUNCTION_IDS_CLASS_COMM,
    MG_MPI_FUNCTION_IDS_CLASS_GROUP,
    MG_MPI_FUNCTION_IDS_CLASS_TYPE,
    MG_MPI_FUNCTION_IDS_CLASS_OP,
    MG_MPI_FUNCTION_IDS_CLASS_RMA, /* one-sided: windows, epochs, accesses */
    MG_MPI_FUNCTION_IDS_CLASS_INFO
} mpi_function_ids_fn_class;

/* "MPI_Send" for MG_FN_Send; "?" for ids out of range. */
const char *mpi_function_ids_name(unsigned fn);
mpi_function_ids_fn_class mpi_function_ids_class_of(unsigned fn);
/* The id of "MPI_Send" or "PMPI_Send" (MPI libraries alias one to the other, so a stack may show
 * either), or of a Fortran binding's name in any spelling (mpi_send_, mpi_send__, MPI_SEND,
 * pmpi_send_, Open MPI's ompi_send_f and mpi_send_f08_, MPICH's mpi_send_f08ts_); MG_FN_NONE for
 * names not wrapped or NULL. */
mpi_function_ids_fn mpi_function_ids_lookup(const char *name);

#endif
