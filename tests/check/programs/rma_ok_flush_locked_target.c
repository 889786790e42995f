/* Correct: rank 0 locks rank 1's window exclusively, puts into it and completes the Put with
 * Win_flush_local, Win_flush and Win_flush_all before the unlock: each flush is to the target of
 * the open lock (or to every locked target), so each is legal. Rank 1 reads its elements after
 * the Barrier. Issue 28 item 5.
 * np: 2
 * slice: none
 * expect: clean
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, values[4] = {1, 2, 3, 4};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(&values[0], 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_flush_local(1, win);
        MPI_Win_flush(1, win);
        MPI_Put(&values[1], 1, MPI_INT, 1, 1, 1, MPI_INT, win);
        MPI_Win_flush_all(win);
        MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1 && (cells[0] != 1 || cells[1] != 2))
        abort();
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
