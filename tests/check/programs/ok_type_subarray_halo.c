/* Correct: a halo exchange of a 2-D block's boundary columns described as subarrays (one column
 * of a 4x4 block) on both sides, received into the ghost columns. Issue 28 items 1 and 8 (derived
 * types: subarray).
 * np: 2
 * slice: none
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sizes[2] = {4, 6}, subsizes[2] = {4, 1}, inner[2], ghost[2];
    double block[4][6] = {{0}};
    MPI_Datatype send_column, recv_column;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* rank 0 sends its last inner column (4) into rank 1's left ghost (0), and back (1 -> 5) */
    inner[0] = 0, inner[1] = rank == 0 ? 4 : 1;
    ghost[0] = 0, ghost[1] = rank == 0 ? 5 : 0;
    MPI_Type_create_subarray(2, sizes, subsizes, inner, MPI_ORDER_C, MPI_DOUBLE, &send_column);
    MPI_Type_create_subarray(2, sizes, subsizes, ghost, MPI_ORDER_C, MPI_DOUBLE, &recv_column);
    MPI_Type_commit(&send_column);
    MPI_Type_commit(&recv_column);
    MPI_Sendrecv(block, 1, send_column, 1 - rank, 0, block, 1, recv_column, 1 - rank, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&recv_column);
    MPI_Type_free(&send_column);
    MPI_Finalize();
    return 0;
}
