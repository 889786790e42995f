/* Ranks 1 and 2 hold MPI_Win_lock_all at once: rank 1 writes element 2 of rank 0's window with
 * MPI_Rput while rank 2 adds to it with MPI_Raccumulate; nothing orders the two, and a put beside
 * an accumulate is not atomic (MPI 3.1 §11.7.1). Issue 28 item 5.
 * np: 3
 * expect: rma_conflicting_access ranks 1,2 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0};
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank == 1)
        MPI_Rput(&rank, 1, MPI_INT, 0, 2, 1, MPI_INT, win, &req); /* <- reported */
    else if (rank == 2)
        MPI_Raccumulate(&rank, 1, MPI_INT, 0, 2, 1, MPI_INT, MPI_SUM, win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
