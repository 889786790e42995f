/* Rank 1 puts element 0 of rank 0's window and flushes it, rank 2 then puts the same element in
 * its own Lock_all epoch: the flush completes rank 1's Put, but no message or collective orders
 * it before rank 2's. Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: rma_conflicting_access ranks 1,2 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank > 0) {
        MPI_Put(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, win); /* <- reported */
        MPI_Win_flush(0, win);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
