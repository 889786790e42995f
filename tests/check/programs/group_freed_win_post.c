/* Rank 1 exposes its window to the group of rank 0, which it freed before (through another copy
 * of the handle): MPI_Win_post with a group already freed, reported before the call reaches MPI.
 * Rank 0 opens no epoch, so nothing waits on the post. Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes abort
 * expect: group_freed ranks 1 line 27 made 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cell = 0;
    const int origin[1] = {0};
    MPI_Group world, origins;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, origin, &origins);
    MPI_Group_free(&world);
    MPI_Win_create(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    if (rank == 1) {
        MPI_Group stale = origins;
        MPI_Group_free(&origins);
        if (MPI_Win_post(stale, 0, win) == MPI_SUCCESS) /* <- reported */
            MPI_Win_wait(win);
    } else {
        MPI_Group_free(&origins);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
