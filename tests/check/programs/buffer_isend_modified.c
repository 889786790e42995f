/* A nonblocking send's buffer written before its Wait: rank 0 posts the send and then overwrites
 * the first element; the message may carry either value (MPI 3.1 §3.7.2). Issue 28 item 4.
 * np: 2
 * slice: mpich
 * expect: send_buffer_modified ranks 0 line 16
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, data[4] = {1, 2, 3, 4};
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(data, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &request);
        data[0] = 99;
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(data, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
