/* Rank 1 reads and adds into rank 0's window with MPI_Rget_accumulate before any epoch (no fence,
 * no lock): an access outside every epoch. Errors return on the window, so the job goes on.
 * Issue 28 item 5.
 * np: 2
 * expect: rma_access_outside_epoch ranks 1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value = 2, old = 0;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    if (rank == 1 && MPI_Rget_accumulate(&value, 1, MPI_INT, &old, 1, MPI_INT, 0, 0, 1, MPI_INT, /* <- reported */
                                         MPI_SUM, win, &req) == MPI_SUCCESS)
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
