/* Every rank frees its window and then closes an epoch on the copy of the handle it kept:
 * MPI_Win_fence on a window already freed, reported before the call reaches MPI. Issue 28 item 2.
 * np: 2
 * slice: mpich
 * mpi: completes abort
 * expect: win_freed ranks 0 line 21
 * expect: win_freed ranks 1 line 21
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int cell = 0;
    MPI_Win win, copy;
    MPI_Init(&argc, &argv);
    MPI_Win_create(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_fence(0, win);
    copy = win;
    MPI_Win_free(&win);
    MPI_Win_fence(0, copy); /* <- reported */
    MPI_Finalize();
    return 0;
}
