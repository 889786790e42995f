/* Ranks 1 and 2 add into element 0 of rank 0's window under MPI_Win_lock_all with
 * MPI_Raccumulate, and rank 1 also reads it with MPI_Rget_accumulate(MPI_NO_OP): accumulates with
 * one op, or MPI_NO_OP, are atomic; every request is completed by one Waitall. Issue 28 item 5.
 * np: 3
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value, seen = 0;
    MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = rank;
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank > 0)
        MPI_Raccumulate(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win, &reqs[0]);
    if (rank == 1)
        MPI_Rget_accumulate(&value, 0, MPI_INT, &seen, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_NO_OP, win,
                            &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
