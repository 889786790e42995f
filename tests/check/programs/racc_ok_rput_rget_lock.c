/* Rank 0 writes element 1 of rank 1's window with MPI_Rput and reads element 2 with MPI_Rget under
 * an exclusive lock, and waits on each request; then rank 1 reads the result. Issue 28 item 5.
 * np: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0, 0, 7, 0}, value = 4, seen = 0;
    MPI_Request req;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Rput(&value, 1, MPI_INT, 1, 1, 1, MPI_INT, win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Rget(&seen, 1, MPI_INT, 1, 2, 1, MPI_INT, win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return rank == 0 && seen != 7;
}
