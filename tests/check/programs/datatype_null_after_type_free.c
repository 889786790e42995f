/* Rank 0 frees its row type (MPI_Type_free sets the handle to MPI_DATATYPE_NULL) and then sends
 * with the handle it just freed. Errors return here, so the job goes on. Issue 28 items 2 and 8.
 * np: 2
 * slice: none
 * expect: datatype_null ranks 0 line 21
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, grid[4][4] = {{0}};
    MPI_Datatype row;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(4, MPI_INT, &row);
    MPI_Type_commit(&row);
    MPI_Type_free(&row);
    if (rank == 0)
        MPI_Isend(grid[0], 1, row, 1, 0, MPI_COMM_WORLD, &request); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
