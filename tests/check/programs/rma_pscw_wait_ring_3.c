/* A ring of exposure epochs: rank r exposes its window to rank r+1 and waits for it to complete
 * before starting its own access epoch to rank r-1; every rank waits in Win_wait for a complete
 * that comes after the next rank's wait. Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: deadlock ranks 0,1,2 line 23
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value = 3;
    MPI_Win win;
    MPI_Group world, next, prev;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int right = (rank + 1) % 3, left = (rank + 2) % 3;
    MPI_Group_incl(world, 1, &right, &next);
    MPI_Group_incl(world, 1, &left, &prev);
    MPI_Win_post(next, 0, win);
    MPI_Win_wait(win);
    MPI_Win_start(prev, 0, win);
    MPI_Put(&value, 1, MPI_INT, left, 0, 1, MPI_INT, win);
    MPI_Win_complete(win);
    MPI_Group_free(&next);
    MPI_Group_free(&prev);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
