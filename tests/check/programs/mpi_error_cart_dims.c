/* Rank 0 makes a Cartesian communicator of 3 processes from MPI_COMM_SELF: MPI raises an error
 * inside the collective constructor (MPI_ERR_ARG or MPI_ERR_DIMS, as the library classes it) on
 * MPI_COMM_SELF, whose handler mpiguard replaced too, and aborts the job. Issue 28 item 6.
 * np: 2
 * slice: none
 * mpi: abort
 * expect: mpi_error ranks 0 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, dims[1] = {3}, periods[1] = {0};
    MPI_Comm cart;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Cart_create(MPI_COMM_SELF, 1, dims, periods, 0, &cart); /* <- reported */
    MPI_Finalize();
    return 0;
}
