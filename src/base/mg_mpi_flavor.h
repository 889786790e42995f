/* The MPI implementations mpiguard tells apart (one ABI each, one build of the interposition
 * library each): a name shared by the layers that choose a library and those that judge a rank. */
#ifndef MG_MPI_FLAVOR_H
#define MG_MPI_FLAVOR_H

typedef enum mg_mpi_flavor {
    MG_MPI_FLAVOR_UNKNOWN = 0,
    MG_MPI_FLAVOR_OPENMPI,
    MG_MPI_FLAVOR_MPICH
} mg_mpi_flavor;

/* "openmpi", "mpich" or "unknown". */
const char *mg_mpi_flavor_name(mg_mpi_flavor f);

#endif
