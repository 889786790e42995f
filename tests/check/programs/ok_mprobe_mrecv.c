/* Rank 0 takes messages from any source with MPI_Mprobe + MPI_Mrecv, so no other receive can
 * steal a probed message.
 * np: 3
 * checks: -message_race
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0, sum = 0;
    MPI_Message msg;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int i = 0; i < 2; i++) {
            MPI_Mprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &msg, &st);
            MPI_Mrecv(&x, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
            sum += x;
        }
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return rank != 0 || sum == 3 ? 0 : 1;
}
