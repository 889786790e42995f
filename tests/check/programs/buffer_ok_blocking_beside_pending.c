/* Blocking calls beside pending requests, all legal: rank 0 sends a with MPI_Send while an
 * MPI_Isend of a is pending (two sends may share bytes), and receives into a[4..7] while a\n * receive into a[0..3] is pending (adjacent bytes). Issue 28 item 4.
 * np: 2
 * slice: none
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, a[8] = {0}, b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    MPI_Request q;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(a, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &q);
        MPI_Send(a, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        MPI_Irecv(a, 4, MPI_INT, 1, 2, MPI_COMM_WORLD, &q);
        MPI_Recv(a + 4, 4, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(b, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(b + 4, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(b, 4, MPI_INT, 0, 3, MPI_COMM_WORLD);
        MPI_Send(b, 4, MPI_INT, 0, 2, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
