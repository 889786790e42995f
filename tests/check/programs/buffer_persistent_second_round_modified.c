/* A persistent send written in flight in its second round only: the first round is clean; the
 * Start of round 1 is named. Issue 28 item 4.
 * np: 2
 * slice: none
 * expect: send_buffer_modified ranks 0 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int a[4] = {1, 2, 3, 4};
    MPI_Request q;
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send_init(a, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &q);
        for (int round = 0; round < 3; round++) {
            MPI_Start(&q);
            if (round == 1)
                a[0] = 10 + round;
            MPI_Wait(&q, MPI_STATUS_IGNORE);
        }
        MPI_Request_free(&q);
    } else {
        for (int round = 0; round < 3; round++)
            MPI_Recv(a, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
