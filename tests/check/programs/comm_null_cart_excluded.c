/* A one-dimensional Cartesian grid of one process on two ranks: MPI_Cart_create gives rank 1
 * MPI_COMM_NULL, and rank 1 joins the grid's Allreduce anyway. Errors return here, so the job goes
 * on. Issue 28 items 2 and 8.
 * np: 2
 * slice: none
 * expect: comm_null ranks 1 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, dims[1] = {1}, periods[1] = {0}, local = 1, sum = 0;
    MPI_Comm grid;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &grid);
    MPI_Allreduce(&local, &sum, 1, MPI_INT, MPI_SUM, grid); /* <- reported */
    if (grid != MPI_COMM_NULL)
        MPI_Comm_free(&grid);
    MPI_Finalize();
    return 0;
}
