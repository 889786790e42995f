/* A Gather where rank 0 (first to arrive) names root 0 and ranks 1 and 2 name root 1.
 * np: 3
 * expect: collective_mismatch ranks 0,1,2 line 16
 * mpi: hang abort completes
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, all[3] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0)
        usleep(300000); /* rank 0's call is the slot's first */
    MPI_Gather(&rank, 1, MPI_INT, all, 1, MPI_INT, rank == 0 ? 0 : 1,
               MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
