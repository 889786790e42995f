/* The names of the MPI flavours (mg_mpi_flavor.h). */
#include "mg_mpi_flavor.h"

const char *mg_mpi_flavor_name(mg_mpi_flavor f)
{
    switch (f) {
    case MG_MPI_FLAVOR_OPENMPI:
        return "openmpi";
    case MG_MPI_FLAVOR_MPICH:
        return "mpich";
    default:
        return "unknown";
    }
}
