/* Rank 0 scatters while rank 1 gathers, both with root 0.
 * np: 2
 * expect: collective_mismatch ranks 0,1 line 14
 * mpi: hang abort completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, mine = 0, all[2] = {1, 2};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Scatter(all, 1, MPI_INT, &mine, 1, MPI_INT, 0, MPI_COMM_WORLD); /* <- reported */
    else
        MPI_Gather(&mine, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
