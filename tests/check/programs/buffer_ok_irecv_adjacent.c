/* Correct: pending receives into adjacent, disjoint halves of one array, and a receive posted
 * again into a buffer whose receive completed. Issue 28 item 4.
 * np: 2
 * slice: none
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int a[8] = {0};
    MPI_Request q[2];
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Irecv(a, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &q[0]);
        MPI_Irecv(a + 4, 4, MPI_INT, 1, 1, MPI_COMM_WORLD, &q[1]);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        MPI_Irecv(a, 8, MPI_INT, 1, 2, MPI_COMM_WORLD, &q[0]);
        MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    } else {
        MPI_Send(a, 4, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Send(a, 4, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Send(a, 8, MPI_INT, 0, 2, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
