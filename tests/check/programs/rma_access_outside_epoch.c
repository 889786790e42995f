/* Accesses outside any epoch: rank 0 puts before the first fence, rank 1 gets after the fence
 * that ended the epochs (MPI_MODE_NOSUCCEED). MPI refuses both (MPI_ERR_RMA_SYNC, returned here)
 * and the job goes on. Issue 28 item 5.
 * np: 2
 * slice: mpich
 * expect: rma_access_outside_epoch ranks 0 line 21
 * expect: rma_access_outside_epoch ranks 1 line 27
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value = 7;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int peer = 1 - rank;
    if (rank == 0)
        MPI_Put(&value, 1, MPI_INT, peer, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Put(&value, 1, MPI_INT, peer, rank, 1, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Get(&value, 1, MPI_INT, peer, 0, 1, MPI_INT, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
