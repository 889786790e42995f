/* Correct post/start/complete/wait: rank 1 exposes its window to rank 0 (post, wait); rank 0
 * starts an access epoch to rank 1, puts and gets, and completes it. Issue 28 item 5. Windows here
 * are 16 bytes or more: MPICH 4.0.2 (UCX) loses or misplaces accesses to smaller ones.
 * np: 2
 * slice: mpich
 * expect: clean
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0, 5, 0, 0}, value = 9, got = 0;
    MPI_Win win;
    MPI_Group world, peer;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int other = 1 - rank;
    MPI_Group_incl(world, 1, &other, &peer);
    if (rank == 0) {
        MPI_Win_start(peer, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Get(&got, 1, MPI_INT, 1, 1, 1, MPI_INT, win);
        MPI_Win_complete(win);
        if (got != 5)
            abort();
    } else {
        MPI_Win_post(peer, 0, win);
        MPI_Win_wait(win);
        if (cells[0] != 9)
            abort();
    }
    MPI_Group_free(&peer);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
