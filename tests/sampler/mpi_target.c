/* The MPI job of the sampler tests: rank 0 computes in mpi_target_compute() for argv[1] seconds
 * while every other rank waits in MPI_Barrier. Spec: docs/sampler.md "Tests". */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

/* Compute-bound on purpose and free of MPI calls, so every sample of rank 0 is OUT_MPI. */
__attribute__((noinline, noclone)) double mpi_target_compute(double seconds)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    volatile double x = 0;
    do {
        for (int i = 0; i < 1000000; i++) {
            x = x * 0.5 + i;
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec) < seconds);
    return x;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        mpi_target_compute(argc > 1 ? atof(argv[1]) : 60.0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
