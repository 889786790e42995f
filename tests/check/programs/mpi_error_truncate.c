/* Rank 1 receives 8 ints into a type of 4: MPI raises MPI_ERR_TRUNCATE in the receive and aborts
 * the job. The type checks' `truncation` of the same pair is left out here (it is reported only
 * when both records reach mpiguard before the abort). Issue 28 item 6.
 * np: 2
 * slice: none
 * checks: -truncation
 * mpi: abort
 * expect: mpi_error ranks 1 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, data[8] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(data, 8, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else
        MPI_Recv(data, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* <- reported */
    MPI_Finalize();
    return 0;
}
