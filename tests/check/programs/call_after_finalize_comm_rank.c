/* Rank 1 asks for its rank again after MPI_Finalize, to name its output file: MPI_Comm_rank is
 * not among the calls MPI-4.0 allows after MPI_Finalize (§11.4.1), and mpiguard does not wrap it;
 * both MPIs end the process in it. Issue 28 (bad input: MPI after Finalize).
 * np: 2
 * slice: mpich
 * mpi: abort
 * expect: call_after_finalize ranks 1 line 20
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 1)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d done\n", rank);
    return 0;
}
