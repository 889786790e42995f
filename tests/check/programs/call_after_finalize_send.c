/* Rank 0 sends a last result to rank 1 after both finalized, from a reporting function: MPI_Send
 * after MPI_Finalize. Issue 28 (bad input: MPI after Finalize).
 * np: 2
 * slice: none
 * mpi: abort
 * expect: call_after_finalize ranks 0 line 13
 */
#include <mpi.h>

static void report_result(int rank, int value)
{
    if (rank == 0)
        MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int rank, value = 42;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Finalize();
    report_result(rank, value);
    return 0;
}
