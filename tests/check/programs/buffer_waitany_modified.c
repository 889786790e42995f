/* Two sends in flight completed one by one with Waitany: rank 0 writes the second send's buffer
 * between the posts and the completions (the last one posted: MPICH hands out one handle for
 * sends it completed at once, and the capture module then knows the last of them only).
 * Issue 28 item 4.
 * np: 2
 * slice: none
 * expect: send_buffer_modified ranks 0 line 21
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, index;
    long first[8] = {0}, second[8] = {0};
    MPI_Request requests[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Isend(first, 8, MPI_LONG, 1, 0, MPI_COMM_WORLD, &requests[0]);
        MPI_Isend(second, 8, MPI_LONG, 1, 1, MPI_COMM_WORLD, &requests[1]);
        second[3] = 42;
        MPI_Waitany(2, requests, &index, MPI_STATUS_IGNORE);
        MPI_Waitany(2, requests, &index, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(second, 8, MPI_LONG, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(first, 8, MPI_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
