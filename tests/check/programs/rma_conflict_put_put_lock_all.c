/* Ranks 1 and 2 both put into element 1 of rank 0's window in their Lock_all epochs, and
 * nothing orders the two epochs: the element's value is undefined. Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: rma_conflicting_access ranks 1,2 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank > 0)
        MPI_Put(&rank, 1, MPI_INT, 0, 1, 1, MPI_INT, win); /* <- reported */
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
