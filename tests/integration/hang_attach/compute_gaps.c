/* A healthy job that computes most of the time: each round every rank computes, the last rank
 * 1.5 s and the others 0.3 s, then all meet in one MPI_Allreduce, for the seconds given (argv[1]).
 * Its last rank is read outside MPI at nearly every sample, and its siblings wait for it inside
 * the call most of the round (hang_attach.sh computing). A round is kept shorter than the
 * verification's two gaps, which the model's suspicions of its siblings' waits need to see it
 * end (with 2.5 s the model suspected it from 28 s on and verification set it aside only because
 * the loaded node stretched the gaps). Computing spins on the clock, so a loaded node lengthens no
 * round. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double spin_until(double end)
{
    volatile double x = 1.0;
    while (MPI_Wtime() < end)
        for (int i = 0; i < 10000; i++)
            x = x * 1.0000001 + 1e-9;
    return x;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double seconds = argc > 1 ? atof(argv[1]) : 30, start = MPI_Wtime();
    double compute = rank == size - 1 ? 1.5 : 0.3, sum = 0;
    int rounds = 0, more = 1;
    while (more) {
        double mine = spin_until(MPI_Wtime() + compute), total;
        MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        sum += total;
        rounds++;
        /* rank 0's clock decides for all, so every rank makes the same number of calls */
        more = MPI_Wtime() - start < seconds;
        MPI_Bcast(&more, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("compute_gaps: %d rounds (%g)\n", rounds, sum > 0 ? 1.0 : 0.0);
    MPI_Finalize();
    return 0;
}
