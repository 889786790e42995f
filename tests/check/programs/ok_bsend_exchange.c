/* Both ranks MPI_Bsend to each other from an attached buffer before receiving: buffered mode
 * makes the send-send order safe.
 * np: 2
 * expect: clean
 */
#include <mpi.h>

static char pool[1 << 16];

int main(int argc, char **argv)
{
    int rank, in = 0, size;
    void *detached;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Buffer_attach(pool, sizeof pool);
    MPI_Bsend(&rank, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    MPI_Recv(&in, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Buffer_detach(&detached, &size);
    MPI_Finalize();
    return in == 1 - rank ? 0 : 1;
}
