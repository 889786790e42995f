/* Ranks 0 and 1 wait for each other; rank 2 waits for rank 0 and rank 3 for rank 2: the knot is
 * {0,1}, ranks 2 and 3 are stuck behind it.
 * np: 4
 * expect: deadlock ranks 0,1,2,3 knot 0,1 line 14
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    static const int from[4] = {1, 0, 0, 2};
    MPI_Recv(&x, 1, MPI_INT, from[rank], 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* <- reported */
    MPI_Send(&x, 1, MPI_INT, from[rank], 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
