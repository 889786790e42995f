/* Rank 0 frees its duplicate of the world (MPI_Comm_free sets the handle to MPI_COMM_NULL) and
 * sends on it afterwards. Errors return here, so the job goes on. Issue 28 items 2 and 8.
 * np: 2
 * slice: none
 * expect: comm_null ranks 0 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 5;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_free(&dup);
    if (rank == 0)
        MPI_Send(&value, 1, MPI_INT, 1, 0, dup); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
