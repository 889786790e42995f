/* PSCW closes without opens: rank 0 completes an access epoch it never started, rank 1 waits for
 * an exposure epoch it never posted. Issue 28 item 5.
 * np: 2
 * slice: none
 * expect: rma_close_without_open ranks 0 line 19
 * expect: rma_close_without_open ranks 1 line 21
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cell[4] = {0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cell, sizeof cell, sizeof cell[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    if (rank == 0)
        MPI_Win_complete(win);
    else
        MPI_Win_wait(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
