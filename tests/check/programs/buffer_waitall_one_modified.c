/* Of two sends in flight completed by one Waitall, rank 1 writes the second one's buffer (a
 * contiguous derived type of doubles) before the Waitall; the first buffer is left alone.
 * Issue 28 item 4.
 * np: 2
 * slice: none
 * expect: send_buffer_modified ranks 1 line 23
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    double a[8] = {0}, b[8] = {0};
    MPI_Datatype pair;
    MPI_Request requests[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
    MPI_Type_commit(&pair);
    int peer = 1 - rank;
    if (rank == 1) {
        MPI_Isend(a, 4, pair, peer, 0, MPI_COMM_WORLD, &requests[0]);
        MPI_Isend(b, 4, pair, peer, 1, MPI_COMM_WORLD, &requests[1]);
        b[7] = 1.5;
        MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    } else {
        MPI_Recv(a, 4, pair, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(b, 4, pair, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&pair);
    MPI_Finalize();
    return 0;
}
