/* Rank 0 starts a PSCW access epoch to rank 1 inside its lock_all epoch (MPI refuses the
 * Win_start, returned here), then, the lock_all closed, starts the epoch again, puts and
 * completes it while rank 1 exposes its window once. The refused Win_start must neither stay a
 * wait of the model nor take rank 1's one post, which the second Win_start needs (both made a
 * false potential_deadlock). Issue 28 items 5 and 8.
 * np: 2
 * slice: none
 * expect: rma_epoch_twice ranks 0 line 26
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value = 5, other;
    MPI_Win win;
    MPI_Group world, peer;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &other, &peer);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Win_start(peer, 0, win); /* <- reported */
        MPI_Win_unlock_all(win);
        MPI_Win_start(peer, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_complete(win);
    } else {
        MPI_Win_post(peer, 0, win);
        MPI_Win_wait(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Group_free(&peer);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
