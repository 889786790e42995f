/* A receive buffer reused only after its completion: rank 0 receives into a with MPI_Irecv,
 * waits, then sends a with MPI_Send and receives into it again with MPI_Sendrecv_replace.
 * Issue 28 item 4.
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
        MPI_Irecv(a, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        MPI_Send(a, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Sendrecv_replace(a, 4, MPI_INT, 1, 2, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(b, 4, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(b, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv_replace(b, 4, MPI_INT, 0, 3, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
