/* A cycle of synchronous sends over five ranks, each to the rank two places ahead.
 * np: 5
 * expect: deadlock ranks 0,1,2,3,4 line 13
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, in = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Ssend(&rank, 1, MPI_INT, (rank + 2) % size, 7, MPI_COMM_WORLD); /* <- reported */
    MPI_Recv(&in, 1, MPI_INT, (rank + size - 2) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
