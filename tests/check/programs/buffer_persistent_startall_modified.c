/* Two persistent sends started together; the second one's buffer is written before the Waitall.
 * Issue 28 item 4.
 * np: 2
 * slice: none
 * expect: send_buffer_modified ranks 0 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
    MPI_Request q[2];
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send_init(a, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &q[0]);
        MPI_Send_init(b, 4, MPI_INT, 1, 1, MPI_COMM_WORLD, &q[1]);
        MPI_Startall(2, q);
        b[3] = 0;
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        MPI_Request_free(&q[0]);
        MPI_Request_free(&q[1]);
    } else {
        MPI_Recv(a, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(b, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
