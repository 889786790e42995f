/* Ranks 1 and 2 hold shared locks on rank 0's window at once: rank 1 puts element 2 while
 * rank 2 adds to it with Accumulate. A Put beside an Accumulate is not atomic. Issue 28 item 5.
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
    if (rank > 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        if (rank == 1)
            MPI_Put(&rank, 1, MPI_INT, 0, 2, 1, MPI_INT, win); /* <- reported */
        else
            MPI_Accumulate(&rank, 1, MPI_INT, 0, 2, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
