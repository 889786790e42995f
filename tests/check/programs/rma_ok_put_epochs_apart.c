/* Rank 0 puts element 0 of rank 1's window in two fence epochs, then twice more in two lock
 * epochs, and reads it back in a third: the same bytes, never twice in one epoch. Issue 28 item 5.
 * np: 2
 * slice: none
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value = 7, back = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    if (rank == 0) {
        for (int round = 0; round < 2; round++) {
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
            MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
            MPI_Win_unlock(1, win);
        }
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Get(&back, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
