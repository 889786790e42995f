/* Rank 0 locks rank 1 and unlocks rank 0, which it never locked (MPI refuses it, returned here),
 * then unlocks rank 1 as it should. Issue 28 item 5. Open MPI only: MPICH 4.0.2 aborts inside
 * that Win_unlock ("Internal error") whatever the error handler, and rank 1 is then stuck on it.
 * flavors: openmpi
 * np: 2
 * slice: none
 * expect: rma_close_without_open ranks 0 line 22
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value = 2;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_unlock(0, win);
        MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
