/* Rank 0 sends a 3x3 tile of doubles (9 values) from its grid as a subarray; rank 1 receives it
 * into a 2x2 subarray of its own grid (4 values): the receive is shorter than the message in the
 * flattened signature. Errors return here, so the job goes on. Issue 28 items 1 and 8 (derived
 * types: subarray).
 * np: 2
 * slice: mpich
 * expect: truncation ranks 0,1 line 24
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sizes[2] = {6, 6}, big[2] = {3, 3}, small[2] = {2, 2}, corner[2] = {1, 1};
    double grid[6][6] = {{0}};
    MPI_Datatype tile;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_create_subarray(2, sizes, rank == 0 ? big : small, corner, MPI_ORDER_C, MPI_DOUBLE,
                             &tile);
    MPI_Type_commit(&tile);
    if (rank == 0)
        MPI_Send(grid, 1, tile, 1, 0, MPI_COMM_WORLD); /* <- reported */
    else
        MPI_Recv(grid, 1, tile, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&tile);
    MPI_Finalize();
    return 0;
}
