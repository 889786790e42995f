/* Both ranks build a column type (a vector) and broadcast a column of a matrix with it, but
 * never commit it. Errors return here, so the job goes on. Issue 28 items 2 and 8 (derived types).
 * np: 2
 * slice: mpich
 * expect: datatype_uncommitted ranks 0 line 17
 * expect: datatype_uncommitted ranks 1 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    double matrix[4][4] = {{0}};
    MPI_Datatype column;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_vector(4, 1, 4, MPI_DOUBLE, &column);
    MPI_Bcast(&matrix[0][2], 1, column, 0, MPI_COMM_WORLD); /* <- reported */
    MPI_Type_free(&column);
    MPI_Finalize();
    return 0;
}
