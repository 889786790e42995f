/* How many neighbours a communicator's process topology gives the calling rank
 * (topology_degrees.h). */
#include <mpi.h>
#include "mpi_handles_weak.h"

#include "topology_degrees.h"

/* Weak as mpi_handles_weak.h explains: the calls only this file makes. */
#pragma weak PMPI_Topo_test
#pragma weak PMPI_Cartdim_get
#pragma weak PMPI_Graph_neighbors_count
#pragma weak PMPI_Dist_graph_neighbors_count

/* The degrees of a graph topology's rank: its neighbours, each one both ways. */
static int graph_degrees(MPI_Comm comm, int *in, int *out)
{
    int me, n;
    if (PMPI_Comm_rank(comm, &me) != MPI_SUCCESS ||
        PMPI_Graph_neighbors_count(comm, me, &n) != MPI_SUCCESS)
        return 0;
    *in = *out = n;
    return 1;
}

int topology_degrees(MPI_Comm comm, int *in, int *out)
{
    int kind = MPI_UNDEFINED, ndims, weighted;
    *in = *out = 0;
    if (comm == MPI_COMM_NULL || PMPI_Topo_test(comm, &kind) != MPI_SUCCESS)
        return 0;
    switch (kind) {
    case MPI_CART:
        if (PMPI_Cartdim_get(comm, &ndims) != MPI_SUCCESS)
            return 0;
        *in = *out = 2 * ndims;
        return 1;
    case MPI_GRAPH:
        return graph_degrees(comm, in, out);
    case MPI_DIST_GRAPH:
        if (PMPI_Dist_graph_neighbors_count(comm, in, out, &weighted) == MPI_SUCCESS)
            return 1;
        *in = *out = 0;
        return 0;
    default:
        return 0;
    }
}
