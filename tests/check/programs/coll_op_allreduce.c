/* Rank 0 reduces with MPI_SUM, rank 1 with MPI_MAX: MPI cannot see it and returns a wrong sum.
 * np: 2
 * expect: collective_mismatch ranks 0,1 line 13
 * mpi: completes hang abort
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, out = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&rank, &out, 1, MPI_INT, rank == 0 ? MPI_SUM : MPI_MAX,
                  MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
