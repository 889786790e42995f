/* Rank 0 waits with Waitsome for wildcard receives that nobody sends: ranks 1 and 2 wait for
 * rank 0's reply first.
 * np: 3
 * expect: deadlock ranks 0,1,2 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, done = 0, idx[2], x[2] = {0, 0};
    MPI_Request reqs[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int i = 0; i < 2; i++)
            MPI_Irecv(&x[i], 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &reqs[i]);
        MPI_Waitsome(2, reqs, &done, idx, MPI_STATUSES_IGNORE); /* <- reported */
        for (int i = 1; i < 3; i++)
            MPI_Send(&done, 1, MPI_INT, i, 6, MPI_COMM_WORLD);
    } else {
        MPI_Recv(x, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
