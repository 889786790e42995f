/* A fence is collective over the window's group: rank 0 enters the closing fence of an epoch
 * while rank 1 first waits for a message rank 0 sends only after that fence.
 * np: 2
 * slice: mpich
 * expect: deadlock ranks 0,1 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cell[4] = {0}, value = 7;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cell, sizeof cell, sizeof cell[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_fence(0, win);
        MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Win_fence(0, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
