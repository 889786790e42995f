/* Rank 0 sets up a persistent send of an indexed type (the diagonal of a 3x3 matrix) it never
 * committed. Errors return here, so the job goes on. Issue 28 items 2 and 8 (persistent requests,
 * derived types: indexed).
 * np: 2
 * slice: none
 * expect: datatype_uncommitted ranks 0 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, matrix[9] = {0}, lengths[3] = {1, 1, 1}, displacements[3] = {0, 4, 8};
    MPI_Datatype diagonal;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_indexed(3, lengths, displacements, MPI_INT, &diagonal);
    if (rank == 0)
        MPI_Send_init(matrix, 1, diagonal, 1, 0, MPI_COMM_WORLD, &request); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Type_free(&diagonal);
    MPI_Finalize();
    return 0;
}
