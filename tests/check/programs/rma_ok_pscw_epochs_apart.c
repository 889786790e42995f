/* Correct: rank 0 exposes its window to rank 1, waits, then to rank 2: both put its element 0,
 * but in two exposure epochs, the second write ordered after the first.
 * Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: clean
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value, got = 0;
    MPI_Win win;
    MPI_Group world, origins, target, origins_one;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = rank;
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int both[2] = {1, 2}, zero = 0;
    MPI_Group_incl(world, 2, both, &origins);
    MPI_Group_incl(world, 1, &zero, &target);
    if (rank == 0) {
        MPI_Group_incl(world, 1, &both[0], &origins_one);
        MPI_Win_post(origins_one, 0, win);
        MPI_Win_wait(win);
        MPI_Group_free(&origins_one);
        MPI_Group_incl(world, 1, &both[1], &origins_one);
        MPI_Win_post(origins_one, 0, win);
        MPI_Win_wait(win);
        MPI_Group_free(&origins_one);
        if (cells[0] != 2)
            abort();
    } else {
        if (rank == 2) /* after rank 1's epoch: the first post names rank 1 only */
            MPI_Recv(&got, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Win_start(target, 0, win);
        MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Win_complete(win);
        if (rank == 1)
            MPI_Send(&value, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    }
    (void)got;
    MPI_Group_free(&origins);
    MPI_Group_free(&target);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
