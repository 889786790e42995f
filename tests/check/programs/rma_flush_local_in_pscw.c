/* Rank 0 puts into rank 1 in a PSCW access epoch and calls Win_flush_local on rank 1 there: a
 * flush belongs to passive-target epochs only (MPI 3.1 §11.5.4), and MPI may raise
 * MPI_ERR_RMA_SYNC (returned here); Win_complete completes the Put. Issue 28 item 5.
 * np: 2
 * slice: none
 * expect: rma_access_outside_epoch ranks 0 line 28
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, one = 1;
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
        MPI_Put(&one, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_flush_local(1, win); /* <- reported */
        MPI_Win_complete(win);
    }
    MPI_Group_free(&peer);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
