/* A ring exchange with persistent requests: Send_init/Recv_init once, five rounds of Startall +
 * Waitall, then Request_free.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, in = 0, out = 0, bad = 0;
    MPI_Request reqs[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size;
    MPI_Recv_init(&in, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Send_init(&out, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, &reqs[1]);
    for (int it = 0; it < 5; it++) {
        out = rank + it;
        MPI_Startall(2, reqs);
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
        bad |= in != left + it;
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    MPI_Finalize();
    return bad;
}
