/* Correct: inside one Lock_all epoch rank 0 puts into ranks 1 and 2 and completes them with
 * Win_flush_local, Win_flush, Win_flush_local_all and Win_flush_all; a Lock_all epoch covers every
 * target, so every flush is legal, and after the Barrier rank 1 reads its element. Issue 28 item 5.
 * np: 3
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
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Put(&values[0], 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_flush_local(1, win);
        MPI_Put(&values[1], 1, MPI_INT, 2, 1, 1, MPI_INT, win);
        MPI_Win_flush(2, win);
        MPI_Put(&values[2], 1, MPI_INT, 1, 2, 1, MPI_INT, win);
        MPI_Win_flush_local_all(win);
        MPI_Win_flush_all(win);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1 && (cells[0] != 1 || cells[2] != 3))
        abort();
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
