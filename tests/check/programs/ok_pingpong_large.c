/* A 4 MiB ping-pong in the right order: rank 0 sends first, rank 1 receives first.
 * np: 2
 * expect: clean
 */
#include <mpi.h>

static char buf[1 << 22];

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int it = 0; it < 3; it++) {
        if (rank == 0) {
            MPI_Send(buf, sizeof buf, MPI_BYTE, 1, it, MPI_COMM_WORLD);
            MPI_Recv(buf, sizeof buf, MPI_BYTE, 1, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, sizeof buf, MPI_BYTE, 0, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, sizeof buf, MPI_BYTE, 0, it, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
