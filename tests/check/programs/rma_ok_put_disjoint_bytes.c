/* Ranks 1 and 2 put into elements 1 and 2 of rank 0's window between the same two fences, and
 * rank 1 then gets element 3 in the same epoch; in a lock epoch rank 0 puts element 0 of rank 1
 * and gets element 1 (adjacent bytes, never shared); two Gets of one element by ranks 0 and 2.
 * Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value, back = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = rank;
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank > 0)
        MPI_Put(&value, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
    if (rank == 1)
        MPI_Get(&back, 1, MPI_INT, 0, 3, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank != 1)
        MPI_Get(&back, 1, MPI_INT, 1, 2, 1, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Get(&back, 1, MPI_INT, 1, 1, 1, MPI_INT, win);
        MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
