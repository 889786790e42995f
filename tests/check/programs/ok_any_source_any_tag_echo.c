/* Every non-zero rank sends to rank 0, which answers each message to its MPI_SOURCE with its
 * MPI_TAG, using MPI_ANY_SOURCE and MPI_ANY_TAG.
 * np: 4
 * checks: -message_race
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, x = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (int i = 1; i < size; i++) {
            MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            x *= 2;
            MPI_Send(&x, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD);
        }
    } else {
        x = rank;
        MPI_Send(&x, 1, MPI_INT, 0, rank + 5, MPI_COMM_WORLD);
        MPI_Recv(&x, 1, MPI_INT, 0, rank + 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return rank == 0 || x == 2 * rank ? 0 : 1;
}
