/* Legal lifecycles: a send request freed right after the Isend (MPI_Request_free of an active
 * send, completed by MPI), a request completed by MPI_Test, a persistent request freed after its
 * last completion, a communicator duplicated and freed in a loop. Issue 28 item 3.
 * np: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 1, flag = 0;
    MPI_Request request;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = 1 - rank;
    if (rank == 0) {
        MPI_Isend(&value, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &request);
        MPI_Request_free(&request);
    } else {
        MPI_Recv(&value, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Irecv(&value, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &request);
    MPI_Send(&rank, 1, MPI_INT, peer, 1, MPI_COMM_WORLD);
    while (!flag)
        MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    MPI_Send_init(&rank, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &request);
    for (int i = 0; i < 2; i++) {
        MPI_Start(&request);
        MPI_Recv(&value, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&request);
    for (int i = 0; i < 3; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Barrier(dup);
        MPI_Comm_free(&dup);
    }
    MPI_Finalize();
    return 0;
}
