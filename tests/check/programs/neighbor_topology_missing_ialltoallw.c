/* Rank 0 starts MPI_Ineighbor_alltoallw on MPI_COMM_WORLD, which has no process topology, while
 * rank 1 does not: the MPI refuses rank 0's call (MPI_ERR_TOPOLOGY) and, errors returning, the
 * job goes on. Issue 28 item 2.
 * np: 2
 * slice: mpich
 * expect: topology_missing ranks 0 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, counts[2] = {1, 1}, out[2] = {0, 0}, in[2];
    MPI_Aint displs[2] = {0, sizeof(int)};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0 && MPI_Ineighbor_alltoallw(out, counts, displs, types, in, counts, displs, types, /* <- reported */
                                             MPI_COMM_WORLD, &req)
                         == MPI_SUCCESS)
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
