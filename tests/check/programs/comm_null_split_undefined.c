/* Rank 1 opts out of MPI_Comm_split with MPI_UNDEFINED, so its new communicator is MPI_COMM_NULL,
 * and then joins the Bcast of those that took part as if it were one of them. Errors return here,
 * so the job goes on. Issue 28 items 2 and 8.
 * np: 2
 * slice: mpich
 * expect: comm_null ranks 1 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Comm workers;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, 0, &workers);
    MPI_Bcast(&value, 1, MPI_INT, 0, workers); /* <- reported */
    if (workers != MPI_COMM_NULL)
        MPI_Comm_free(&workers);
    MPI_Finalize();
    return 0;
}
