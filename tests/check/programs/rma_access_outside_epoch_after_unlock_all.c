/* Rank 0 opens a passive-target epoch on every rank (Lock_all), accumulates into rank 1, closes
 * it with Unlock_all and then fetches-and-adds once more, after the epoch ended. MPI refuses the
 * late call (returned here). Issue 28 items 5 and 8.
 * np: 2
 * slice: none
 * expect: rma_access_outside_epoch ranks 0 line 22
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, one = 1, old = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Accumulate(&one, 1, MPI_INT, 1, 0, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_unlock_all(win);
        MPI_Fetch_and_op(&one, &old, MPI_INT, 1, 1, MPI_SUM, win); /* <- reported */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
