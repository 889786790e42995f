/* Rank 0 puts elements 0-3 of rank 1's window and, in the same lock epoch, gets elements 2-3
 * back: the Get overlaps the Put, and nothing orders them before the unlock. Issue 28 item 5.
 * np: 2
 * slice: none
 * expect: rma_conflicting_access ranks 0 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, values[4] = {1, 2, 3, 4}, back[2];
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(values, 4, MPI_INT, 1, 0, 4, MPI_INT, win); /* <- reported */
        MPI_Get(back, 2, MPI_INT, 1, 2, 2, MPI_INT, win);
        MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
