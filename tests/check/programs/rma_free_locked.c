/* A window freed while rank 0 still holds the lock of an epoch it opened on rank 1 and in which
 * it accumulated. Issue 28 item 5.
 * np: 2
 * slice: none
 * mpi: completes hang abort
 * expect: rma_epoch_unclosed ranks 0 line 22
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value = 1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Accumulate(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, MPI_SUM, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
