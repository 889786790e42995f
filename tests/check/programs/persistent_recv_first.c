/* Persistent requests: both ranks start and complete their persistent receive before starting
 * their persistent send.
 * np: 2
 * expect: deadlock ranks 0,1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, in = 0, out = 1;
    MPI_Request rreq, sreq;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = 1 - rank;
    MPI_Recv_init(&in, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &rreq);
    MPI_Send_init(&out, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &sreq);
    MPI_Start(&rreq);
    MPI_Wait(&rreq, MPI_STATUS_IGNORE); /* <- reported */
    MPI_Start(&sreq);
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    MPI_Request_free(&rreq);
    MPI_Request_free(&sreq);
    MPI_Finalize();
    return 0;
}
