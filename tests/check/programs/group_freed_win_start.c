/* Rank 0 opens an access epoch to the group of rank 1 that it freed right before through the
 * handle it used to make it: MPI_Win_start with a group already freed, reported before the call
 * reaches MPI. Rank 1 exposes nothing, so nothing waits on the start. Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes abort hang
 * expect: group_freed ranks 0 line 27 made 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cell = 0;
    const int target[1] = {1};
    MPI_Group world, targets;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, target, &targets);
    MPI_Group_free(&world);
    MPI_Win_create(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Group access = targets;
    MPI_Group_free(&targets);
    if (rank == 0) {
        if (MPI_Win_start(access, 0, win) == MPI_SUCCESS) /* <- reported */
            MPI_Win_complete(win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
