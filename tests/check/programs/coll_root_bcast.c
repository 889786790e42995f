/* Each rank passes its own rank as the root of one Bcast: the roots disagree.
 * np: 2
 * expect: collective_mismatch ranks 0,1 line 13
 * mpi: hang abort completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 5;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Bcast(&x, 1, MPI_INT, rank, MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
