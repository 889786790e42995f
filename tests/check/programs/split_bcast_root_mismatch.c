/* Two communicators from MPI_Comm_split ({0,1} and {2,3}); in the first the two ranks name
 * different roots for one Bcast, the second is correct.
 * np: 4
 * expect: collective_mismatch ranks 0,1 line 18
 * mpi: hang abort completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sub, x = 1;
    MPI_Comm half;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &half);
    MPI_Comm_rank(half, &sub);
    int root = rank < 2 ? sub : 0;
    MPI_Bcast(&x, 1, MPI_INT, root, half); /* <- reported */
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
