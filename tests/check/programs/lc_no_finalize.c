/* Rank 1 returns from main without calling MPI_Finalize, after its last collective: an exit,
 * not a crash (no signal), named at that collective (a return has no call). Issue 28 item 3.
 * np: 2
 * mpi: completes abort hang
 * expect: no_finalize ranks 1 line 14
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        return 0;
    MPI_Finalize();
    return 0;
}
