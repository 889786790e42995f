/* Between the same two fences rank 1 adds to element 2 of rank 0's window with Fetch_and_op while
 * rank 2 reads it with a plain Get: a Get beside an atomic update is not atomic. Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: rma_conflicting_access ranks 1,2 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, one = 1, x = 0;
    MPI_Win w;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_fence(0, w);
    /* one line for both calls: which rank's record the detector analyses first varies */
    if (rank > 0)
        rank == 1 ? MPI_Fetch_and_op(&one, &x, MPI_INT, 0, 2, MPI_SUM, w) : MPI_Get(&x, 1, MPI_INT, 0, 2, 1, MPI_INT, w);
    MPI_Win_fence(0, w);
    MPI_Win_free(&w);
    MPI_Finalize();
    return 0;
}
