/* Rank 1's window counts displacements in bytes (disp_unit 1) while rank 0's counts ints: rank 0's
 * Puts of one int at displacements 4 and 6 of rank 1 write bytes 4-7 and 6-9, which overlap
 * (scaled by rank 0's own unit they would not). Issue 28 item 5.
 * np: 2
 * slice: none
 * expect: rma_conflicting_access ranks 0 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, values[2] = {1, 2};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, rank == 1 ? 1 : sizeof cells[0], MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(&values[0], 1, MPI_INT, 1, 4, 1, MPI_INT, win); /* <- reported */
        MPI_Put(&values[1], 1, MPI_INT, 1, 6, 1, MPI_INT, win);
        MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
