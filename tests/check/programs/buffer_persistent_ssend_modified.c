/* A synchronous persistent send written before its completion. Issue 28 item 4.
 * np: 2
 * slice: none
 * expect: send_buffer_modified ranks 0 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int a[4] = {1, 2, 3, 4};
    MPI_Request q;
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Ssend_init(a, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &q);
        MPI_Start(&q);
        a[0] = -1;
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        MPI_Request_free(&q);
    } else {
        MPI_Recv(a, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
