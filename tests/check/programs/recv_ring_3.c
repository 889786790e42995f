/* A recv-recv cycle over three ranks: each rank receives from its left neighbour before sending.
 * np: 3
 * expect: deadlock ranks 0,1,2 line 14
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size;
    MPI_Recv(&x, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* <- reported */
    MPI_Send(&x, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
