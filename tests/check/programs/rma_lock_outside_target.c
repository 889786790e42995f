/* A passive-target epoch covers only its target: rank 0 locks rank 1 and accumulates into rank 2,
 * which no epoch covers. Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: rma_access_outside_epoch ranks 0 line 21
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cell[4] = {0}, value = 1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cell, sizeof cell, sizeof cell[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Accumulate(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_unlock(1, win);
        MPI_Accumulate(&value, 1, MPI_INT, 2, 0, 1, MPI_INT, MPI_SUM, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
