/* Correct: MPI_Type_dup of a committed type is committed (MPI 3.1 §4.1.10: "newtype has the same
 * committed state as the old type"), so rank 0 sends with the dup of its committed vector without
 * committing it again; the dup of a predefined type is used the same way. Issue 28 items 1 and 8.
 * np: 2
 * slice: mpich
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, grid[4][4] = {{0}}, column[4];
    double value = 1.5;
    MPI_Datatype strided, copy, real;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(4, 1, 4, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    MPI_Type_dup(strided, &copy);
    MPI_Type_dup(MPI_DOUBLE, &real);
    if (rank == 0) {
        MPI_Send(&grid[0][1], 1, copy, 1, 0, MPI_COMM_WORLD);
        MPI_Send(&value, 1, real, 1, 1, MPI_COMM_WORLD);
    } else {
        MPI_Recv(column, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&value, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&real);
    MPI_Type_free(&copy);
    MPI_Type_free(&strided);
    MPI_Finalize();
    return 0;
}
