/* Correct: in one fence epoch every rank puts its rank into its own cell of rank 0's window
 * (disjoint bytes), and rank 0 checks them after the closing fence. Issue 28 item 5. A cell more
 * than ranks: MPICH 4.0.2 (UCX) writes past a window of 12 bytes.
 * np: 3
 * slice: none
 * expect: clean
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, cells[4] = {-1, -1, -1, -1};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    MPI_Put(&rank, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_free(&win);
    for (int r = 0; rank == 0 && r < size; r++)
        if (cells[r] != r)
            abort();
    MPI_Finalize();
    return 0;
}
