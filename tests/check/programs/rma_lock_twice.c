/* An epoch opened twice: rank 0 locks rank 1 again (shared, so that MPI cannot wait for itself)
 * before unlocking it, then opens a Lock_all while that lock is held. MPI refuses both (returned
 * here). Issue 28 item 5.
 * np: 2
 * slice: none
 * expect: rma_epoch_twice ranks 0 line 21
 * expect: rma_epoch_twice ranks 0 line 22
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cell[4] = {0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cell, sizeof cell, sizeof cell[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Win_lock_all(0, win);
        MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
