/* Rank 1 adds into rank 0's window with MPI_Raccumulate under MPI_Win_lock_all and never waits on
 * the request: MPI_Win_unlock_all completes the access, but the request stays allocated until a
 * Wait, Test or Request_free (MPI 3.1 §11.3.5). Issue 28 items 3 and 5.
 * np: 2
 * expect: request_not_completed ranks 1 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value = 5;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank == 1)
        MPI_Raccumulate(&value, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, win, &req); /* <- reported */
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
