/* Rank 0 sends a column of 8 ints; rank 1 receives it with a vector type that holds only 4 (one
 * vector of 2 blocks of 2 ints): the receive is shorter than the message in the flattened
 * signature, MPI_ERR_TRUNCATE. Errors return here, so the job goes on. Issue 28 items 1 and 8
 * (derived types: vector).
 * np: 2
 * slice: none
 * expect: truncation ranks 0,1 line 22
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, column[8] = {0}, grid[4][4];
    MPI_Datatype pairs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_vector(2, 2, 4, MPI_INT, &pairs);
    MPI_Type_commit(&pairs);
    if (rank == 0)
        MPI_Send(column, 8, MPI_INT, 1, 0, MPI_COMM_WORLD); /* <- reported */
    else
        MPI_Recv(grid, 1, pairs, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&pairs);
    MPI_Finalize();
    return 0;
}
