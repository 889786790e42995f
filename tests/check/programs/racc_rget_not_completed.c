/* Each rank reads its neighbour's first element with MPI_Rget under a shared lock and never
 * completes the request (the unlock completes the read, not the request). Issue 28 items 3 and 5.
 * np: 2
 * expect: request_not_completed ranks 0 line 19
 * expect: request_not_completed ranks 1 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, seen = -1;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    cells[0] = rank;
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock(MPI_LOCK_SHARED, 1 - rank, 0, win);
    MPI_Rget(&seen, 1, MPI_INT, 1 - rank, 0, 1, MPI_INT, win, &req); /* <- reported */
    MPI_Win_unlock(1 - rank, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
