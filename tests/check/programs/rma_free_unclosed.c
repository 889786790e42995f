/* A window freed with an epoch open: rank 0 puts in a fence epoch and frees the window without
 * the fence that completes the put. Issue 28 item 5. MPICH's Win_free then waits for the put
 * forever; mpiguard stops the job that makes no progress after the error.
 * np: 2
 * slice: none
 * mpi: completes hang
 * expect: rma_epoch_unclosed ranks 0 line 24
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cell[4] = {0}, value = 3;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cell, sizeof cell, sizeof cell[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    MPI_Barrier(MPI_COMM_WORLD);
    /* the put is not completed: the window's free must follow a fence */
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
