/* Rank 0 adds into rank 1's window with MPI_Raccumulate inside a fence epoch: the request-based
 * accesses are valid in a passive-target epoch only (MPI 3.1 §11.3.5). Errors return on the
 * window, so the job goes on whether MPI refuses the call or not.
 * Issue 28 item 5.
 * np: 2
 * expect: rma_access_outside_epoch ranks 0 line 21
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value = 3;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_fence(0, win);
    if (rank == 0 &&
        MPI_Raccumulate(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, MPI_SUM, win, &req) /* <- reported */
            == MPI_SUCCESS)
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
