/* Rank 0 posts MPI_Irecv from MPI_ANY_SOURCE and waits for it, then receives the other message:
 * the message of rank 1 or rank 2 may complete the Irecv (a message race, issue 28 item 6).
 * np: 3
 * slice: none
 * expect: message_race ranks 0,1,2 line 16
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, first = 0, second = 0;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Irecv(&first, 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        MPI_Recv(&second, 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        first = rank;
        MPI_Send(&first, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
