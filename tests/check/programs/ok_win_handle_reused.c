/* Correct: windows made and freed in a loop, each used only while it lives. MPI hands a freed
 * window's handle out again for the next window, so the handle of a freed window comes back as a
 * live one: no win_freed. Issue 28 item 2.
 * np: 2
 * slice: mpich
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cell = 0, value = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 4; i++) {
        MPI_Win win;
        MPI_Win_create(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        MPI_Win_fence(0, win);
        if (rank == 0)
            MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_fence(0, win);
        MPI_Win_free(&win);
    }
    MPI_Finalize();
    return 0;
}
