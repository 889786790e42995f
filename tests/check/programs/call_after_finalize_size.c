/* Rank 0 prints a summary with the world's size after MPI_Finalize: MPI_Comm_size, which mpiguard
 * does not wrap, is not allowed then (MPI-4.0 §11.4.1). Issue 28 (bad input: MPI after
 * Finalize).
 * np: 2
 * slice: none
 * mpi: abort
 * expect: call_after_finalize ranks 0 line 17
 */
#include <mpi.h>
#include <stdio.h>

static void print_summary(int rank)
{
    int size = 0;
    if (rank != 0)
        return;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("%d ranks\n", size);
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    print_summary(rank);
    return 0;
}
