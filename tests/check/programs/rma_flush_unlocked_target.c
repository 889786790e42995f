/* Rank 0 locks rank 1's window, puts into it, and then flushes rank 2, which it holds no lock on:
 * a flush completes the accesses of a passive-target epoch of its target only (MPI 3.1 §11.5.4),
 * so MPI may raise MPI_ERR_RMA_SYNC (returned here). Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: rma_access_outside_epoch ranks 0 line 22
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, one = 1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(&one, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_flush(1, win);
        MPI_Win_flush(2, win); /* <- reported */
        MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
