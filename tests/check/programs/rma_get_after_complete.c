/* An access after its PSCW epoch ended: rank 0 starts, gets and completes an access epoch to rank
 * 1, then gets once more. MPI refuses the last Get (returned here). Issue 28 item 5.
 * np: 2
 * slice: none
 * expect: rma_access_outside_epoch ranks 0 line 28
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {4, 5, 6, 7}, got = 0;
    MPI_Win win;
    MPI_Group world, peer;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int other = 1 - rank;
    MPI_Group_incl(world, 1, &other, &peer);
    if (rank == 1) {
        MPI_Win_post(peer, 0, win);
        MPI_Win_wait(win);
    } else {
        MPI_Win_start(peer, 0, win);
        MPI_Get(&got, 1, MPI_INT, 1, 2, 1, MPI_INT, win);
        MPI_Win_complete(win);
        MPI_Get(&got, 1, MPI_INT, 1, 3, 1, MPI_INT, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Group_free(&peer);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
