/* Rank 0 sends a block of doubles in buffered mode (MPI_Ibsend) and rescales the block before the
 * Wait: MPI 3.1 §3.7.2 forbids touching the buffer of any nonblocking send until it completes,
 * buffered or not. Issue 28 items 4 and 8.
 * np: 2
 * slice: none
 * expect: send_buffer_modified ranks 0 line 21
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size;
    double block[4] = {1, 2, 3, 4};
    char buffer[MPI_BSEND_OVERHEAD + sizeof block];
    void *detached;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Buffer_attach(buffer, sizeof buffer);
    if (rank == 0) {
        MPI_Ibsend(block, 4, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &request); /* <- reported */
        for (int i = 0; i < 4; i++)
            block[i] *= 0.5;
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(block, 4, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Buffer_detach(&detached, &size);
    MPI_Finalize();
    return 0;
}
