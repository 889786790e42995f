/* Rank 0 locks rank 1's window, puts into it and unlocks it, and only then flushes rank 1: the
 * unlock ended the passive-target epoch the flush needs (MPI 3.1 §11.5.4), and MPI may raise
 * MPI_ERR_RMA_SYNC (returned here). Issue 28 item 5.
 * np: 2
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
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(&one, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_unlock(1, win);
        MPI_Win_flush(1, win); /* <- reported */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
