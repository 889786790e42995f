/* Correct: ranks 1 and 2 hold shared locks on rank 0's window at once and each puts its own
 * element: the targets do not overlap. Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: clean
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank > 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Put(&rank, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && (cells[1] != 1 || cells[2] != 2))
        abort();
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
