/* A token goes once around the ring with MPI_Sendrecv_replace and comes back to its owner.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int token = rank;
    for (int it = 0; it < size; it++)
        MPI_Sendrecv_replace(&token, 1, MPI_INT, (rank + 1) % size, 0, (rank + size - 1) % size, 0,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return token == rank ? 0 : 1;
}
