/* The concolic part of `mpiguard demo` (docs/examples.md): a target small enough to show a
 * campaign in seconds. One marked input; rank 1 crashes when it equals a value random inputs
 * almost never hit, which the solver reads off the branch. Built by mpiguard-cc. */
#include <mpi.h>
#include <mpiguard/concolic.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, code = 0;
    MPI_Init(&argc, &argv);
    mpiguard_int(&code);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *table = NULL;
    if (rank == 1 && code == 4242)
        *table = code; /* the planted bug */
    int sum = 0;
    MPI_Allreduce(&code, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("sum of the codes %d\n", sum);
    MPI_Finalize();
    return 0;
}
