/* A hang whose culprit is on a remote node and is named only by what the ranks published: rank 2
 * (node 3) receives from rank 0 a message it never sends, so ranks 0 and 1 (nodes 1 and 2) wait
 * in an allreduce rank 2 never reaches. Every rank waits quietly inside MPI: rank 2 is the one
 * behind in the world's collectives (docs/hang.md "The culprit"). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, one = 1, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2)
        MPI_Recv(&one, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
