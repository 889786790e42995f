/* Correct: ranks 1 and 2 add to element 1 of rank 0's window with Accumulate and MPI_SUM in
 * their Lock_all epochs at once: accumulates of one op on one type are atomic, and rank 0 ends
 * with 3. Issue 28 item 5.
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
    MPI_Win_lock_all(0, win);
    if (rank > 0)
        MPI_Accumulate(&rank, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && cells[1] != 3)
        abort();
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
