/* Every rank splits the world by parity for a row reduction and never frees the row
 * communicator. Issue 28 items 3 and 8.
 * np: 2
 * slice: mpich
 * expect: communicator_leak ranks 0 line 16
 * expect: communicator_leak ranks 1 line 16
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sum = 0;
    MPI_Comm row;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &row); /* <- reported */
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, row);
    MPI_Finalize();
    return 0;
}
