/* Rank 0 waits for any of two receives (from 1 or from 2) while ranks 1 and 2 both wait for
 * rank 0: an OR over two ranks that are both blocked.
 * np: 3
 * expect: deadlock ranks 0,1,2 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, idx, x[2] = {0, 0};
    MPI_Request reqs[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Irecv(&x[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[0]);
        MPI_Irecv(&x[1], 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &reqs[1]);
        MPI_Waitany(2, reqs, &idx, MPI_STATUS_IGNORE); /* <- reported */
        MPI_Send(x, 1, MPI_INT, 1 + idx, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
