/* Rank 0 receives with a persistent request from MPI_ANY_SOURCE, started twice: its first start
 * may take the message of rank 1 or of rank 2 (a message race, issue 28 item 6; the line reported
 * is the request's MPI_Recv_init).
 * np: 3
 * slice: none
 * expect: message_race ranks 0,1,2 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Recv_init(&value, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &request);
        for (int i = 0; i < 2; i++) {
            MPI_Start(&request);
            MPI_Wait(&request, MPI_STATUS_IGNORE);
        }
        MPI_Request_free(&request);
    } else {
        value = rank;
        MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
