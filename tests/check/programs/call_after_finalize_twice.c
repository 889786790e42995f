/* Rank 1 finalizes twice: a cleanup function calls MPI_Finalize after main already did. Issue 28
 * (bad input: MPI after Finalize).
 * np: 2
 * slice: none
 * mpi: abort
 * expect: call_after_finalize ranks 1 line 13
 */
#include <mpi.h>

static void shut_down(int rank)
{
    if (rank == 1)
        MPI_Finalize();
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Finalize();
    shut_down(rank);
    return 0;
}
