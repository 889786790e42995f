/* Rank 0 polls with MPI_Iprobe (any source, any tag) until both workers' messages have arrived.
 * np: 3
 * checks: -message_race
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, got = 0, x = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        while (got < 2) {
            int flag = 0;
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
            if (flag) {
                MPI_Recv(&x, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
                got++;
            }
        }
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, rank, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
