/* Rank 1 reads rank 0's cells with MPI_Get in a fence epoch of a window made by MPI_Win_allocate
 * and frees the window without the fence that completes the get (the value read is undefined
 * until then). Issue 28 items 5 and 8. MPICH's Win_free may then wait for the get forever;
 * mpiguard stops the job that makes no progress after the error.
 * np: 2
 * slice: none
 * mpi: completes hang
 * expect: rma_epoch_unclosed ranks 1 line 26
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, *cells, got[2] = {0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof *cells, sizeof *cells, MPI_INFO_NULL, MPI_COMM_WORLD, &cells, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    for (int i = 0; i < 4; i++)
        cells[i] = rank * 10 + i;
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    if (rank == 1)
        MPI_Get(got, 2, MPI_INT, 0, 1, 2, MPI_INT, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win); /* <- reported */
    MPI_Finalize();
    return 0;
}
