/* Rank 0 duplicates MPI_COMM_WORLD and then enters a Barrier; rank 1 does it the other way round
 * (a communicator constructor is a collective on its parent).
 * np: 2
 * expect: collective_mismatch ranks 0,1
 * mpi: hang abort completes
 * (No line expected: which rank's call is reported first depends on which record arrives first.)
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Comm_dup(MPI_COMM_WORLD, &dup); /* <- reported */
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    }
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
