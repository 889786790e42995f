/* In one PSCW exposure epoch of rank 0, ranks 1 and 2 accumulate into its element 2, one with
 * MPI_SUM, the other with MPI_MAX: accumulates are atomic only with the same op.
 * Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: rma_conflicting_access ranks 1,2 line 29
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value, got = 0;
    MPI_Win win;
    MPI_Group world, origins, target;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = rank;
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int both[2] = {1, 2}, zero = 0;
    MPI_Group_incl(world, 2, both, &origins);
    MPI_Group_incl(world, 1, &zero, &target);
    if (rank == 0) {
        MPI_Win_post(origins, 0, win);
        MPI_Win_wait(win);
    } else {
        MPI_Win_start(target, 0, win);
        MPI_Accumulate(&value, 1, MPI_INT, 0, 2, 1, MPI_INT, rank == 1 ? MPI_SUM : MPI_MAX, win);
        MPI_Win_complete(win);
    }
    (void)got;
    MPI_Group_free(&origins);
    MPI_Group_free(&target);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
