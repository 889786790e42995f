/* Every rank opens a Lock_all epoch, rank 0 accumulates into rank 1, and after Unlock_all rank 0
 * calls Win_flush_local_all: no passive-target epoch is open any more (MPI 3.1 §11.5.4), and MPI
 * may raise MPI_ERR_RMA_SYNC (returned here). Issue 28 item 5.
 * np: 2
 * slice: none
 * expect: rma_access_outside_epoch ranks 0 line 23
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
    MPI_Win_lock_all(0, win);
    if (rank == 0)
        MPI_Accumulate(&one, 1, MPI_INT, 1, 0, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_unlock_all(win);
    if (rank == 0)
        MPI_Win_flush_local_all(win); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
