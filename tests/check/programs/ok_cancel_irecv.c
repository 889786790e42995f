/* Each rank posts a receive nobody will match, cancels it and completes it, then exchanges with
 * Sendrecv as usual.
 * np: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, in = 0, cancelled = 0;
    MPI_Request req;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Irecv(&in, 1, MPI_INT, 1 - rank, 99, MPI_COMM_WORLD, &req);
    MPI_Cancel(&req);
    MPI_Wait(&req, &st);
    MPI_Test_cancelled(&st, &cancelled);
    MPI_Sendrecv(&rank, 1, MPI_INT, 1 - rank, 0, &in, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Finalize();
    return cancelled && in == 1 - rank ? 0 : 1;
}
