/* Correct: in one PSCW exposure epoch of rank 0, ranks 1 and 2 both add into its element 0 with
 * MPI_Accumulate(MPI_SUM) on MPI_INT: accumulates with the same op and basic type on the same
 * bytes are atomic (MPI 3.1 §11.7.1), and rank 0 then holds 1 + 2.
 * Issue 28 item 5.
 * np: 3
 * slice: mpich
 * expect: clean
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
        if (cells[0] != 3)
            abort();
    } else {
        MPI_Win_start(target, 0, win);
        MPI_Accumulate(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
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
