/* MPI_Comm_split makes {0,1} and {2,3}; in the first the two ranks receive from each other
 * before sending, the second exchanges correctly and finalizes.
 * np: 4
 * expect: deadlock ranks 0,1 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sub, x = 0;
    MPI_Comm half;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &half);
    MPI_Comm_rank(half, &sub);
    if (rank < 2) {
        MPI_Recv(&x, 1, MPI_INT, 1 - sub, 0, half, MPI_STATUS_IGNORE); /* <- reported */
        MPI_Send(&x, 1, MPI_INT, 1 - sub, 0, half);
    } else {
        MPI_Sendrecv_replace(&x, 1, MPI_INT, 1 - sub, 0, 1 - sub, 0, half, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
