/* Rank 0 asks MPI_Dims_create to split 6 processes over 2 dimensions with the first fixed at 4,
 * which does not divide 6. No argument check of mpiguard's looks at dims, so MPI itself raises
 * MPI_ERR_DIMS (or whichever class the library gives it); the call has no communicator, so the
 * error goes to MPI_COMM_WORLD's handler, which mpiguard replaced, and the job aborts. Issue 28
 * item 6.
 * np: 2
 * slice: none
 * mpi: abort
 * expect: mpi_error ranks 0 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, dims[2] = {4, 0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Dims_create(6, 2, dims); /* <- reported */
    MPI_Finalize();
    return 0;
}
