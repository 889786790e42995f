/* A busy job for bench/check/leaf_quiet.sh: blocking exchanges on MPI_COMM_WORLD that a leaf of
 * `check --detector-leaves` matches inside its block (ring neighbours, even ranks sending first),
 * an Allreduce per iteration, and compute phases of 0-300 ms, one rank at a time, so a leaf's
 * input goes quiet for about as long as an application's does between its phases.
 * Usage: leaf_busy --iterations N */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

/* Busy for ms milliseconds of wall clock: a rank that computes makes no MPI call. */
static void compute(int ms)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
}

int main(int argc, char **argv)
{
    int rank, size, iterations = argc > 2 ? atoi(argv[2]) : 20;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double x = rank, y = 0;
    for (int it = 0; it < iterations; it++) {
        /* one rank per iteration computes for 0, 50, ..., 300 ms; the others wait for it */
        if (it % size == rank)
            compute(50 * (it % 7));
        for (int k = 0; k < 10; k++) {
            if (rank % 2 == 0) {
                MPI_Send(&x, 1, MPI_DOUBLE, right, k, MPI_COMM_WORLD);
                MPI_Recv(&y, 1, MPI_DOUBLE, left, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(&y, 1, MPI_DOUBLE, left, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(&x, 1, MPI_DOUBLE, right, k, MPI_COMM_WORLD);
            }
        }
        MPI_Allreduce(&y, &x, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
