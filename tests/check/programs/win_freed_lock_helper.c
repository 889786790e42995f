/* A helper reads rank 1's cell under a lock on the window it was given, which the caller freed
 * before calling it: MPI_Win_lock on a window already freed, reported before the call reaches
 * MPI. Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes abort
 * expect: win_freed ranks 0 line 14
 */
#include <mpi.h>

static int read_cell(MPI_Win win, int target)
{
    int value = -1;
    if (MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win) != MPI_SUCCESS) /* <- reported */
        return value;
    MPI_Get(&value, 1, MPI_INT, target, 0, 1, MPI_INT, win);
    MPI_Win_unlock(target, win);
    return value;
}

int main(int argc, char **argv)
{
    int rank, cell = 3;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    const MPI_Win shared = win;
    MPI_Win_free(&win);
    if (rank == 0)
        read_cell(shared, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
