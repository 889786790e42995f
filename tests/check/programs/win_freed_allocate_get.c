/* Rank 1 reads from rank 0's allocated window in a fence epoch opened on a copy of the handle
 * after MPI_Win_free: MPI_Win_fence and then MPI_Get on a window already freed; the fence, the
 * first call, is reported on every rank before it reaches MPI. Issue 28 item 2.
 * MPICH only: Open MPI ends rank 1 in the fence (a crash), so its MPI_Get is never reached.
 * flavors: mpich
 * np: 2
 * slice: none
 * mpi: completes abort
 * expect: win_freed ranks 0 line 26
 * expect: win_freed ranks 1 line 26
 * expect: win_freed ranks 1 line 28
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0, *cells;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &cells, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    *cells = 5;
    MPI_Win stale = win;
    MPI_Win_free(&win);
    MPI_Win_fence(0, stale);
    if (rank == 1)
        MPI_Get(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, stale);
    MPI_Finalize();
    return 0;
}
