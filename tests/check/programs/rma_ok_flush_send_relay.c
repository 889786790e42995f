/* Correct: rank 1 puts element 0 of rank 0's window, flushes it and sends to rank 0, which
 * passes the word on to rank 2; rank 2 then puts the same element. The messages order the second
 * Put after the first, through rank 0, and rank 0 ends with 2. Issue 28 item 5.
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
    int word = 0;
    MPI_Win_lock_all(0, win);
    if (rank == 1) {
        MPI_Put(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Win_flush(0, win);
        MPI_Send(&word, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Recv(&word, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&word, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&word, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Put(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && cells[0] != 2)
        abort();
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
