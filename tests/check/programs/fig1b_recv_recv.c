/* MUST paper Fig. 1b: both ranks receive before sending, so neither send is ever reached.
 * np: 2
 * expect: deadlock ranks 0,1 line 13
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, in = 0, out = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = 1 - rank;
    MPI_Recv(&in, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* <- reported */
    MPI_Send(&out, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
