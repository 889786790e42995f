/* Persistent 4 MiB sends around a ring of three ranks, started and waited for (Startall + Waitall)
 * before the persistent receive is started.
 * np: 3
 * expect: deadlock ranks 0,1,2 line 20
 */
#include <mpi.h>

static char out[1 << 22], in[1 << 22];

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Request sreq[1], rreq;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Send_init(out, sizeof out, MPI_BYTE, (rank + 1) % size, 0, MPI_COMM_WORLD, &sreq[0]);
    MPI_Recv_init(in, sizeof in, MPI_BYTE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &rreq);
    MPI_Startall(1, sreq);
    MPI_Waitall(1, sreq, MPI_STATUSES_IGNORE); /* <- reported */
    MPI_Start(&rreq);
    MPI_Wait(&rreq, MPI_STATUS_IGNORE);
    MPI_Request_free(&sreq[0]);
    MPI_Request_free(&rreq);
    MPI_Finalize();
    return 0;
}
