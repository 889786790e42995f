/* Rank 0 receives with MPI_ANY_TAG from rank 1 only: rank 1's two messages arrive in the order
 * it sent them (MPI's non-overtaking rule), so there is no race (issue 28 item 6).
 * np: 2
 * slice: none
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int i = 0; i < 2; i++)
            MPI_Recv(&value, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        for (int tag = 1; tag <= 2; tag++)
            MPI_Send(&value, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
