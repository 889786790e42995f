/* MUST paper Fig. 8 made safe: both of rank 1's Irecvs are wildcards, so whichever message
 * each takes, the Waitall completes.
 * np: 3
 * checks: -message_race
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x[2] = {0, 0};
    MPI_Request reqs[2];
    MPI_Status st[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Irecv(&x[0], 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &reqs[0]);
        MPI_Irecv(&x[1], 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &reqs[1]);
        MPI_Waitall(2, reqs, st);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return rank != 1 || x[0] + x[1] == 2 ? 0 : 1;
}
