/* Rank 0 puts into rank 1 in a fence epoch and calls Win_flush_all there: a fence epoch is no
 * passive-target epoch, and rank 0 holds no lock at all, so the flush has nothing to complete and
 * MPI may raise MPI_ERR_RMA_SYNC (returned here); the closing fence completes the Put. Issue 28
 * item 5.
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
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Put(&one, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_flush_all(win); /* <- reported */
    }
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
