/* Rank 0 adds a pair of ints into rank 1's window with MPI_Rget_accumulate whose result datatype
 * (a contiguous pair) was never committed. Errors return on the window, so the job goes on.
 * Issue 28 items 2 and 5.
 * np: 2
 * expect: datatype_uncommitted ranks 0 line 21
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value[2] = {1, 2}, old[2];
    MPI_Datatype pair;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_lock_all(0, win);
    if (rank == 0 && MPI_Rget_accumulate(value, 2, MPI_INT, old, 1, pair, 1, 0, 2, MPI_INT, /* <- reported */
                                         MPI_SUM, win, &req) == MPI_SUCCESS)
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Win_unlock_all(win);
    MPI_Type_free(&pair);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
