/* MPI_Ibcast and MPI_Ireduce issued in the same order on every rank and completed by one
 * MPI_Waitall.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, x = 0, sum = 0;
    MPI_Request reqs[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        x = 3;
    MPI_Ibcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Ireduce(&rank, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    MPI_Finalize();
    return x == 3 && (rank != 0 || sum == size * (size - 1) / 2) ? 0 : 1;
}
