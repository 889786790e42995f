/* Ranks 1 and 2 add into element 0 of rank 0's window between the same two fences, both with
 * MPI_SUM, and rank 1 also reads it with Get_accumulate(MPI_NO_OP): concurrent accumulates with
 * one op, or MPI_NO_OP, are atomic and legal (MPI 3.1 §11.7.1). Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value, seen = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = rank;
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank > 0)
        MPI_Accumulate(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
    if (rank == 1)
        MPI_Get_accumulate(&value, 1, MPI_INT, &seen, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_NO_OP, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
