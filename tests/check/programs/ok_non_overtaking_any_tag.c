/* Rank 0 sends three messages with different tags; rank 1 receives them with MPI_ANY_TAG and
 * relies on MPI's non-overtaking order.
 * np: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, bad = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 3; i++) {
        int x = i;
        if (rank == 0) {
            MPI_Send(&x, 1, MPI_INT, 1, 10 + i, MPI_COMM_WORLD);
        } else {
            MPI_Recv(&x, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            bad |= st.MPI_TAG != 10 + i;
        }
    }
    MPI_Finalize();
    return bad;
}
