/* Four ranks post a standard send of a small message to the left, then a blocking wildcard-tag
 * receive from the right: buffered in practice, a cycle if sends were unbuffered.
 * np: 4
 * expect: potential_deadlock ranks 0,1,2,3 line 15
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, in[4] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int msg[4] = {rank, rank, rank, rank};
    MPI_Send(msg, 4, MPI_INT, (rank + size - 1) % size, 3, MPI_COMM_WORLD); /* <- reported */
    MPI_Recv(in, 4, MPI_INT, (rank + 1) % size, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
