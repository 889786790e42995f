/* Rank 0 sends a strided column of doubles (an hvector); rank 1 receives it into a resized
 * MPI_LONG type of the same stride (8 bytes each, as a long is here): equal sizes, different basic
 * types. Issue 28 items 1 and 8 (derived types: hvector, resized).
 * np: 2
 * slice: none
 * expect: type_mismatch ranks 0,1 line 24
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    double grid[4][4] = {{0}};
    long column[4][4];
    MPI_Datatype strided, spaced;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_create_hvector(4, 1, sizeof grid[0], MPI_DOUBLE, &strided);
    MPI_Type_commit(&strided);
    MPI_Type_create_resized(MPI_LONG, 0, sizeof column[0], &spaced);
    MPI_Type_commit(&spaced);
    if (rank == 0)
        MPI_Send(&grid[0][1], 1, strided, 1, 0, MPI_COMM_WORLD); /* <- reported */
    else
        MPI_Recv(&column[0][1], 4, spaced, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&spaced);
    MPI_Type_free(&strided);
    MPI_Finalize();
    return 0;
}
