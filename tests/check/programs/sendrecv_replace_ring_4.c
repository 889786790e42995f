/* A Sendrecv_replace ring over four ranks that receives from the rank two places back while
 * sending to the right neighbour: the expected messages never come.
 * np: 4
 * expect: deadlock ranks 0,1,2,3 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int x = rank;
    int to = (rank + 1) % size, from = (rank + size - 2) % size;
    MPI_Status st;
    MPI_Sendrecv_replace(&x, 1, MPI_INT, to, 4, from, 4, MPI_COMM_WORLD, &st); /* <- reported */
    MPI_Finalize();
    return 0;
}
