/* Inputs read by rank 0 alone and broadcast, as HPL's HPL_pdinfo reads its input file: a run
 * whose focus is another rank logs no input values. The program's own size, 500, is outside
 * random testing's range ([-100, 100]), so its arm is covered only by a run that kept the
 * program's own values. */
#include <mpi.h>
#include <mpiguard/concolic.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size = 500;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        mpiguard_int(&size);
    MPI_Bcast(&size, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (size == 500) /* OWN-VALUE */
        printf("rank %d: the program's own size\n", rank);
    MPI_Finalize();
    return 0;
}
