/* Two different collectives through the MPI-4 large-count binding: rank 0 calls MPI_Bcast_c
 * where rank 1 calls MPI_Reduce_c.
 * MPICH only: Open MPI 4.1 has no MPI-4 large-count `_c` functions.
 * flavors: mpich
 * np: 2
 * expect: collective_mismatch ranks 0,1 line 17
 * mpi: hang abort completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, out = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Bcast_c(&rank, 1, MPI_INT, 0, MPI_COMM_WORLD); /* <- reported */
    else
        MPI_Reduce_c(&rank, &out, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
