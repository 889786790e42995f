/* Correct ring of PSCW epochs: every rank posts to its right neighbour and starts to its left one
 * before waiting, so each Win_wait's origin completes. Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: clean
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value;
    MPI_Win win;
    MPI_Group world, next, prev;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int right = (rank + 1) % 3, left = (rank + 2) % 3;
    MPI_Group_incl(world, 1, &right, &next);
    MPI_Group_incl(world, 1, &left, &prev);
    value = 10 + rank;
    for (int round = 0; round < 3; round++) {
        MPI_Win_post(next, 0, win);
        MPI_Win_start(prev, 0, win);
        MPI_Put(&value, 1, MPI_INT, left, round, 1, MPI_INT, win);
        MPI_Win_complete(win);
        MPI_Win_wait(win);
    }
    if (cells[0] != 10 + right || cells[2] != 10 + right)
        abort();
    MPI_Group_free(&next);
    MPI_Group_free(&prev);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
