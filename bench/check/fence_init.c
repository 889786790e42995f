/* A trivial MPI program for bench/check/fence_cost.sh: rank 0 prints the longest MPI_Init among
 * the ranks (each rank's own clock, the nodes sharing this machine's) and the span from the first
 * rank entering it to the last leaving it, then one allreduce crosses the nodes. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static double fence_init_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    double start = fence_init_now();
    MPI_Init(&argc, &argv);
    double end = fence_init_now();
    /* the length and the span's two ends, each reduced to its maximum: -start for the earliest */
    double mine[3] = {end - start, -start, end}, most[3];
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Reduce(mine, most, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("init %.4f span %.4f\n", most[0], most[2] + most[1]);
    MPI_Finalize();
    return 0;
}
