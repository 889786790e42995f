/* A post group that names a rank that never starts: rank 0 exposes its window to ranks 1 and 2
 * and waits for both to complete; rank 2 never opens an access epoch and waits in a barrier that
 * rank 0 reaches only after its wait. Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: deadlock ranks 0,2,1 knot 0,2 line 28
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value = 3;
    MPI_Win win;
    MPI_Group world, origins, target;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int both[2] = {1, 2}, zero = 0;
    MPI_Group_incl(world, 2, both, &origins);
    MPI_Group_incl(world, 1, &zero, &target);
    if (rank == 1) {
        MPI_Win_start(target, 0, win);
        MPI_Put(&value, 1, MPI_INT, 0, 1, 1, MPI_INT, win);
        MPI_Win_complete(win);
    } else if (rank == 0) {
        MPI_Win_post(origins, 0, win);
        MPI_Win_wait(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Group_free(&origins);
    MPI_Group_free(&target);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
