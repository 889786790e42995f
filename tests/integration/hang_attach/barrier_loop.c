/* A healthy job found inside MPI_Barrier at nearly every sample: barrier after barrier for the
 * seconds given (argv[1]). Built with -O2 its count lives in a callee-saved register, not on its
 * stack: only the frames' registers tell it from a job hung in that barrier when no call counter
 * is there to read (hang_attach.sh healthy). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    double seconds = argc > 1 ? atof(argv[1]) : 30, start = MPI_Wtime();
    long barriers = 0;
    do
        MPI_Barrier(MPI_COMM_WORLD);
    while (++barriers % 256 != 0 || MPI_Wtime() - start < seconds);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("barrier_loop: %ld barriers\n", barriers);
    MPI_Finalize();
    return 0;
}
