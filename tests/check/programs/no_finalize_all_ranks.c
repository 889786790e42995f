/* No rank calls MPI_Finalize: every rank returns from main after its last reduction (the call was
 * forgotten). Issue 28 items 3 and 8.
 * np: 2
 * slice: mpich
 * mpi: completes abort hang
 * expect: no_finalize ranks 0 line 16
 * expect: no_finalize ranks 1 line 16
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return sum == 1 ? 0 : 1;
}
