/* Eight MPI_INT sent into a receive of four: MPI_ERR_TRUNCATE. Errors return here, so the job
 * goes on and the run shows check's finding alone (under MPI_ERRORS_ARE_FATAL the job aborts
 * with it: issue 28 item 6). Issue 28 item 1.
 * np: 2
 * expect: truncation ranks 0,1 line 17
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, eight[8] = {0}, four[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0)
        MPI_Send(eight, 8, MPI_INT, 1, 0, MPI_COMM_WORLD); /* <- reported */
    else
        MPI_Recv(four, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
