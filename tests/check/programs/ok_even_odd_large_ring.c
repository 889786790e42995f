/* The fixed version of a large-message send-send ring: even ranks send then receive, odd ranks
 * receive then send.
 * np: 4
 * expect: clean
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
    if (rank % 2 == 0) {
        MPI_Send(out, sizeof out, MPI_BYTE, right, 0, MPI_COMM_WORLD);
        MPI_Recv(in, sizeof in, MPI_BYTE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(in, sizeof in, MPI_BYTE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(out, sizeof out, MPI_BYTE, right, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
