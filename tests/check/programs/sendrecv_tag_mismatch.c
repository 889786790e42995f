/* A pairwise Sendrecv where each rank sends with tag 1 but receives with tag 2.
 * np: 2
 * expect: deadlock ranks 0,1 line 14
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, in = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = 1 - rank;
    MPI_Status st;
    MPI_Sendrecv(&rank, 1, MPI_INT, peer, 1, &in, 1, MPI_INT, peer, 2, MPI_COMM_WORLD,
                 &st); /* <- reported */
    MPI_Finalize();
    return 0;
}
