/* Rank 0 sets up a persistent receive from rank `size` (an off-by-one in a loop over peers from
 * 1 to size inclusive): the last MPI_Recv_init of the loop is refused. Errors return here, so the
 * job goes on. Issue 28 items 2 and 8 (persistent requests).
 * np: 2
 * slice: none
 * expect: rank_out_of_range ranks 0 line 21
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, values[4] = {0};
    MPI_Request requests[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL,
                               MPI_REQUEST_NULL};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        for (int peer = 1; peer <= size; peer++)
            if (MPI_Recv_init(&values[peer], 1, MPI_INT, peer, 0, MPI_COMM_WORLD, /* <- reported */
                              &requests[peer]) != MPI_SUCCESS)
                requests[peer] = MPI_REQUEST_NULL;
        MPI_Startall(1, &requests[1]);
        MPI_Wait(&requests[1], MPI_STATUS_IGNORE);
        MPI_Request_free(&requests[1]);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
