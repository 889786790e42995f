/* A block type built from a row type built from MPI_INT: the program frees the block but not
 * the row it was built from (MPI_Type_free of the outer type does not free the inner one): one
 * datatype_leak per rank at the row's constructor. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: datatype_leak ranks 0 line 17
 * expect: datatype_leak ranks 1 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, matrix[6][4] = {{0}};
    MPI_Datatype row, rows;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_contiguous(4, MPI_INT, &row); /* <- reported */
    MPI_Type_vector(3, 1, 2, row, &rows);
    MPI_Type_commit(&rows);
    MPI_Bcast(matrix, 1, rows, 0, MPI_COMM_WORLD);
    MPI_Type_free(&rows);
    MPI_Finalize();
    return 0;
}
