/* Correct: in one Lock_all epoch rank 1 puts element 0 of rank 0's window and completes it with
 * Win_flush before a Barrier, after which rank 2 gets it: the flush and the Barrier order the
 * Get after the Put, and rank 2 reads 1. Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: clean
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, got[4] = {0}, values[4] = {1, 2, 3, 4};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank == 1) {
        MPI_Put(values, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Win_flush(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 2)
        MPI_Get(got, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_unlock_all(win);
    if (rank == 2 && got[0] != 1)
        abort();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
