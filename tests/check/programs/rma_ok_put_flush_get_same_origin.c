/* Correct: under one shared lock on rank 1's window rank 0 puts element 0, completes the Put
 * with Win_flush and gets the element back: the flush orders the Get after the Put, and rank 0
 * reads 1. Issue 28 item 5.
 * np: 2
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
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(values, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_flush(1, win);
        MPI_Get(got, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_unlock(1, win);
        if (got[0] != 1)
            abort();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
