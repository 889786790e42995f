/* The table of MPI calls that write a user buffer (cc_mpi_write.h; docs/design/concolic.md "Memory
 * MPI writes"). A nonblocking call shares its blocking twin's row: its buffer is made concrete at
 * the post, which is enough because MPI forbids the program to touch a pending receive buffer
 * until completion, so no store can give it a symbolic value in between. */
#include "cc_mpi_write.h"

#include "rt_mpi_write.h"

#include <string.h>

#define ALL RT_MPI_WRITE_ALL
#define RECEIVERS RT_MPI_WRITE_RECEIVERS
#define ROOT RT_MPI_WRITE_ROOT
#define NONROOT RT_MPI_WRITE_NONROOT
#define COUNT RT_MPI_WRITE_COUNT
#define PER_PEER RT_MPI_WRITE_PER_PEER
#define MY_COUNT RT_MPI_WRITE_MY_COUNT
#define V RT_MPI_WRITE_V

/* Positions from the MPI standard's C bindings (MPI 3.1 and MPI 4.0's Isendrecv*). */
static const cc_mpi_write table[] = {
    /* name, nonblocking, who, shape, buf, sendbuf, count, displs, type, comm, root */
    {"MPI_Recv", "MPI_Irecv", ALL, COUNT, 0, -1, 1, -1, 2, 5, -1},
    {"MPI_Mrecv", "MPI_Imrecv", ALL, COUNT, 0, -1, 1, -1, 2, -1, -1},
    {"MPI_Sendrecv", "MPI_Isendrecv", ALL, COUNT, 5, -1, 6, -1, 7, 10, -1},
    {"MPI_Sendrecv_replace", "MPI_Isendrecv_replace", ALL, COUNT, 0, -1, 1, -1, 2, 7, -1},
    {"MPI_Bcast", "MPI_Ibcast", NONROOT, COUNT, 0, -1, 1, -1, 2, 4, 3},
    {"MPI_Reduce", "MPI_Ireduce", ROOT, COUNT, 1, 0, 2, -1, 3, 6, 5},
    {"MPI_Allreduce", "MPI_Iallreduce", ALL, COUNT, 1, 0, 2, -1, 3, 5, -1},
    {"MPI_Scan", "MPI_Iscan", ALL, COUNT, 1, 0, 2, -1, 3, 5, -1},
    {"MPI_Exscan", "MPI_Iexscan", ALL, COUNT, 1, 0, 2, -1, 3, 5, -1},
    {"MPI_Reduce_scatter_block", "MPI_Ireduce_scatter_block", ALL, COUNT, 1, 0, 2, -1, 3, 5, -1},
    {"MPI_Reduce_scatter", "MPI_Ireduce_scatter", ALL, MY_COUNT, 1, 0, 2, -1, 3, 5, -1},
    {"MPI_Gather", "MPI_Igather", ROOT, PER_PEER, 3, 0, 4, -1, 5, 7, 6},
    {"MPI_Gatherv", "MPI_Igatherv", ROOT, V, 3, 0, 4, 5, 6, 8, 7},
    {"MPI_Scatter", "MPI_Iscatter", RECEIVERS, COUNT, 3, -1, 4, -1, 5, 7, 6},
    {"MPI_Scatterv", "MPI_Iscatterv", RECEIVERS, COUNT, 4, -1, 5, -1, 6, 8, 7},
    {"MPI_Allgather", "MPI_Iallgather", ALL, PER_PEER, 3, 0, 4, -1, 5, 6, -1},
    {"MPI_Allgatherv", "MPI_Iallgatherv", ALL, V, 3, 0, 4, 5, 6, 7, -1},
    {"MPI_Alltoall", "MPI_Ialltoall", ALL, PER_PEER, 3, 0, 4, -1, 5, 6, -1},
    {"MPI_Alltoallv", "MPI_Ialltoallv", ALL, V, 4, 0, 5, 6, 7, 8, -1},
};

const cc_mpi_write *cc_mpi_write_find(const char *name)
{
    if (strncmp(name, "MPI_", 4))
        return NULL;
    for (size_t k = 0; k < sizeof table / sizeof *table; k++)
        if (!strcmp(name, table[k].name) || !strcmp(name, table[k].nonblocking))
            return &table[k];
    return NULL;
}
