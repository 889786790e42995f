/* Rank 0 sends to rank 5 in a job of 2: the argument checks report it before the call reaches
 * MPI, which then raises MPI_ERR_RANK and aborts the job; the argument finding is the only one
 * (MPI's error of the same call is not reported twice). Issue 28 item 6.
 * np: 2
 * slice: none
 * mpi: abort
 * expect: rank_out_of_range ranks 0 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(&value, 1, MPI_INT, 5, 0, MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
