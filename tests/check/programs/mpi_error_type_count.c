/* Rank 0 makes a contiguous type of -1 elements: MPI raises an error (MPI_ERR_COUNT or
 * MPI_ERR_ARG, as the library classes it) and aborts the job. Issue 28 item 6.
 * np: 2
 * slice: none
 * mpi: abort
 * expect: mpi_error ranks 0 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Datatype type;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Type_contiguous(-1, MPI_INT, &type); /* <- reported */
    MPI_Finalize();
    return 0;
}
