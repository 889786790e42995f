/* A synchronous send completed by a Test loop: rank 0 writes its buffer while polling, before the
 * Test that completes it; rank 1 receives late. Issue 28 item 4.
 * np: 2
 * slice: none
 * expect: send_buffer_modified ranks 0 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, done = 0;
    char text[64] = "first";
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Issend(text, 64, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &request);
        text[0] = 'F';
        while (!done)
            MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(text, 64, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
