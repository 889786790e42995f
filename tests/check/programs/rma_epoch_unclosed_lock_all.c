/* Rank 1 opens Lock_all, reads rank 0's cells and frees the window without Unlock_all. Issue 28
 * items 5 and 8.
 * np: 2
 * slice: none
 * mpi: completes hang abort
 * expect: rma_epoch_unclosed ranks 1 line 24
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {1, 2, 3, 4}, got[2] = {0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    if (rank == 1) {
        MPI_Win_lock_all(0, win);
        MPI_Get(got, 2, MPI_INT, 0, 0, 2, MPI_INT, win);
        MPI_Win_flush(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win); /* <- reported */
    MPI_Finalize();
    return 0;
}
