/* An MPI application that, on this run, never calls MPI_Init (it would with an argument): it must
 * run and exit as it would without mpiguard. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc > 1) {
        MPI_Init(&argc, &argv);
        MPI_Finalize();
    }
    printf("no MPI here\n");
    return 5;
}
