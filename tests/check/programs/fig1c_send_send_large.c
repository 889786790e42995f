/* MUST paper Fig. 1c with 4 MiB messages: both ranks send first and the rendezvous sends never
 * find their receives.
 * np: 2
 * expect: deadlock ranks 0,1 line 16
 */
#include <mpi.h>

static char out[1 << 22], in[1 << 22];

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = 1 - rank;
    MPI_Send(out, sizeof out, MPI_BYTE, peer, 0, MPI_COMM_WORLD); /* <- reported */
    MPI_Recv(in, sizeof in, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
