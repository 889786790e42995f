/* An MPI_Iallreduce overlapped with a ring Sendrecv, then completed with MPI_Wait.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, sum = 0, in = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &in, 1, MPI_INT, (rank + size - 1) % size,
                 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return sum == size * (size - 1) / 2 ? 0 : 1;
}
