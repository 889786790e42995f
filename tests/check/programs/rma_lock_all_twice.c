/* Lock_all opened twice on one window by rank 1 (MPI refuses the second, returned here); the
 * first is closed normally. Issue 28 item 5.
 * np: 2
 * slice: none
 * expect: rma_epoch_twice ranks 1 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    if (rank == 1) {
        int one = 1;
        MPI_Win_lock_all(0, win);
        MPI_Win_lock_all(0, win);
        MPI_Accumulate(&one, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_unlock_all(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
