/* Ranks 1 and 2 both put into element 0 of rank 0's window between the same two fences: the
 * element's value is undefined (MPI 3.1 §11.7.1). Issue 28 item 5.
 * np: 3
 * slice: mpich
 * expect: rma_conflicting_access ranks 1,2 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = rank;
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank > 0)
        MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win); /* <- reported */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
