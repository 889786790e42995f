/* Rank 1 posts a receive of its vector type from rank 0 and frees the type while the receive is
 * pending (legal), then posts a second receive with the freed handle, from MPI_PROC_NULL (a
 * boundary of its halo): a datatype used after MPI_Type_free. The pending receive keeps the type
 * alive in MPI, so the call goes through. Issue 28 items 2 and 8 (derived types: vector).
 * np: 2
 * slice: none
 * expect: datatype_freed ranks 1 line 25
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, grid[4][3] = {{0}}, column[4] = {1, 2, 3, 4};
    MPI_Datatype strided;
    MPI_Request pending;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        MPI_Type_vector(4, 1, 3, MPI_INT, &strided);
        MPI_Type_commit(&strided);
        MPI_Irecv(&grid[0][0], 1, strided, 0, 0, MPI_COMM_WORLD, &pending);
        MPI_Datatype handle = strided;
        MPI_Type_free(&strided);
        MPI_Recv(&grid[0][2], 1, handle, MPI_PROC_NULL, 0, MPI_COMM_WORLD, /* <- reported */
                 MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&pending, MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(column, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
