/* Every rank Isends 4 MiB to the right, receives from the left with a blocking Recv, then waits
 * for its send: nonblocking sends break the cycle.
 * np: 3
 * expect: clean
 */
#include <mpi.h>

static char out[1 << 22], in[1 << 22];

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Isend(out, sizeof out, MPI_BYTE, (rank + 1) % size, 0, MPI_COMM_WORLD, &req);
    MPI_Recv(in, sizeof in, MPI_BYTE, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
