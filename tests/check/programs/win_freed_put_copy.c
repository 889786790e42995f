/* Rank 0 writes to rank 1's window through a copy of its handle after the window was freed:
 * MPI_Put on a window already freed, reported before the call reaches MPI. Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes abort
 * expect: win_freed ranks 0 line 23
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cell = 0, value = 4;
    MPI_Win win, copy;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    copy = win;
    MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    if (rank == 0)
        MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, copy); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
