/* Rank 0 receives two MPI_INT messages from MPI_ANY_SOURCE; rank 1 sends an MPI_INT, rank 2 an
 * MPI_FLOAT. Whichever order MPI matches them in, rank 2's message is received as MPI_INT.
 * Issue 28 item 1.
 * np: 3
 * checks: -message_race
 * expect: type_mismatch ranks 2,0 line 23
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, one = 1, got[2];
    float f = 2.0f;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int i = 0; i < 2; i++)
            MPI_Recv(&got[i], 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Send(&one, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else {
        MPI_Send(&f, 1, MPI_FLOAT, 0, 0, MPI_COMM_WORLD); /* <- reported */
    }
    MPI_Finalize();
    return 0;
}
