/* A fence and a Barrier in crossed orders: rank 0 closes its epoch with a fence and then joins
 * the Barrier, rank 1 joins the Barrier first. The fence waits for rank 1, the Barrier for rank
 * 0: the two communicators (the window's and MPI_COMM_WORLD) hide the cycle from a per-call view.
 * np: 2
 * slice: none
 * expect: deadlock ranks 0,1 line 21
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value = 5;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Put(&value, 1, MPI_INT, 1 - rank, rank, 1, MPI_INT, win);
    if (rank == 1)
        MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
