/* A send-send cycle over three ranks with one int: every rank sends right before receiving from
 * the left; MPI buffers the sends, so only unbuffered sends would deadlock.
 * np: 3
 * expect: potential_deadlock ranks 0,1,2 line 14
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, in = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Send(&rank, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD); /* <- reported */
    MPI_Recv(&in, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
