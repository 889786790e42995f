/* A send-send cycle over four ranks with 4 MiB messages: no rendezvous send finds its receive.
 * np: 4
 * expect: deadlock ranks 0,1,2,3 line 16
 */
#include <mpi.h>

static char out[1 << 22], in[1 << 22];

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Send(out, sizeof out, MPI_BYTE, right, 1, MPI_COMM_WORLD); /* <- reported */
    MPI_Recv(in, sizeof in, MPI_BYTE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
