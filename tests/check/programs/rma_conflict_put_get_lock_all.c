/* In their Lock_all epochs rank 1 puts elements 0-3 of rank 0's window while rank 2 gets
 * elements 2-3: the Get overlaps the Put, and nothing orders them. Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: rma_conflicting_access ranks 1,2 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, got[4] = {0}, values[4] = {1, 2, 3, 4};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank == 1)
        MPI_Put(values, 4, MPI_INT, 0, 0, 4, MPI_INT, win); /* <- reported */
    else if (rank == 2)
        MPI_Get(got, 2, MPI_INT, 0, 2, 2, MPI_INT, win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
