/* Two starts both MPIs refuse (MPI_ERR_REQUEST under MPI_ERRORS_RETURN) after mpiguard read their
 * entries: rank 1's MPI_Start of its MPI_Irecv's request, which is not persistent, and rank 0's
 * MPI_Startall of its persistent send and MPI_REQUEST_NULL, which mpiguard paired with rank 1's
 * receive. Rank 0 then starts the send alone, and the receive takes it. Nothing is reported: the
 * refused Startall leaves nothing posted and gives the receive back (before, a false
 * request_started_twice at line 24, and rank 1's Start record was "not accepted" as malformed).
 * Issue 28 item 6.
 * np: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 1, ready = 0, refused = 1;
    MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send_init(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[0]);
        MPI_Recv(&ready, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        refused = MPI_Startall(2, reqs) != MPI_SUCCESS;
        MPI_Start(&reqs[0]);
        MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
        MPI_Request_free(&reqs[0]);
    } else {
        MPI_Irecv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &reqs[0]);
        refused = MPI_Start(&reqs[0]) != MPI_SUCCESS;
        MPI_Send(&ready, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return refused ? 0 : 1;
}
