/* Two owners of one window each free it: the second MPI_Win_free, through the other copy of the
 * handle, frees a window already freed, reported before the call reaches MPI. Issue 28 item 2.
 * Open MPI crashes in the call (a segmentation fault in ompi_win_free): the capture module waits
 * until its record of the invalid call is read before passing the call on, so the finding and its
 * line come out all the same.
 * np: 2
 * slice: none
 * mpi: completes abort
 * expect: win_freed ranks 0 line 32
 * expect: win_freed ranks 1 line 32
 */
#include <mpi.h>

typedef struct exchange {
    MPI_Win win;
} exchange;

static void close_exchange(exchange *e)
{
    MPI_Win_free(&e->win);
}

int main(int argc, char **argv)
{
    int cell = 0;
    MPI_Init(&argc, &argv);
    exchange first, second;
    MPI_Win_create(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, MPI_COMM_WORLD, &first.win);
    MPI_Win_set_errhandler(first.win, MPI_ERRORS_RETURN);
    second = first;
    close_exchange(&first);
    MPI_Win_free(&second.win); /* <- reported */
    MPI_Finalize();
    return 0;
}
