/* Correct passive target: every rank opens Lock_all on a window made with MPI_Win_allocate, adds
 * 1 to its own cell of every rank with Fetch_and_op (disjoint bytes per origin), and closes it;
 * then each rank's cells hold one 1 per origin. Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: clean
 */
#include <mpi.h>
#include <stdlib.h>

/* room for 4 ranks: MPICH 4.0.2 (UCX) misplaces accesses to windows under 16 bytes */
enum { CELLS = 4 };

int main(int argc, char **argv)
{
    int rank, size, one = 1, old;
    int *cells;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_allocate(CELLS * (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &cells, &win);
    for (int r = 0; r < size; r++)
        cells[r] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    for (int r = 0; r < size; r++)
        MPI_Fetch_and_op(&one, &old, MPI_INT, r, rank, MPI_SUM, win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int r = 0; r < size; r++)
        if (cells[r] != 1)
            abort();
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
