/* Rank 0 synchronises once more after MPI_Finalize, a wrapped call: reported before MPI sees it
 * (and ends the process). Issue 28 (bad input: MPI after Finalize).
 * np: 2
 * slice: none
 * mpi: abort
 * expect: call_after_finalize ranks 0 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Finalize();
    if (rank == 0)
        MPI_Barrier(MPI_COMM_WORLD);
    return 0;
}
