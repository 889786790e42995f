/* MUST paper Fig. 1c with one int: both ranks send first; MPI buffers the small sends, so the job
 * completes, but without buffering it would deadlock.
 * np: 2
 * expect: potential_deadlock ranks 0,1 line 14
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, in = 0, out = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = 1 - rank;
    MPI_Send(&out, 1, MPI_INT, peer, 0, MPI_COMM_WORLD); /* <- reported */
    MPI_Recv(&in, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
