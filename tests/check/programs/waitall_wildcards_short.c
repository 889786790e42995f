/* Rank 0 waits for two wildcard Irecvs but only rank 1 sends, then waits for rank 0 like rank 2
 * does; the hanging Waitall never reports which source the first Irecv took.
 * np: 3
 * expect: deadlock ranks 0,1,2 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x[2] = {0, 0};
    MPI_Request reqs[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Irecv(&x[0], 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &reqs[0]);
        MPI_Irecv(&x[1], 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &reqs[1]);
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE); /* <- reported */
        MPI_Send(x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Send(x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    } else {
        if (rank == 1)
            MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
