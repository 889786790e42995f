/* Ranks 0 and 1 reduce to root 0, rank 2 (which arrives first) to root 2.
 * np: 3
 * expect: collective_mismatch ranks 2,0,1 line 15
 * mpi: hang abort completes
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2) {
        MPI_Reduce(&rank, &sum, 1, MPI_INT, MPI_SUM, 2, MPI_COMM_WORLD); /* <- reported */
    } else {
        usleep(300000); /* rank 2's call is the slot's first */
        MPI_Reduce(&rank, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
