/* A master keeps one Irecv open per worker and serves whichever finishes first (MPI_Waitany),
 * three rounds per worker, then sends each a stop message.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

enum { ROUNDS = 3 };

int main(int argc, char **argv)
{
    int rank, size, in[4] = {0};
    MPI_Request reqs[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        int served[4] = {0}, open = size - 1;
        for (int w = 1; w < size; w++)
            MPI_Irecv(&in[w - 1], 1, MPI_INT, w, 0, MPI_COMM_WORLD, &reqs[w - 1]);
        while (open > 0) {
            int idx, more;
            MPI_Waitany(size - 1, reqs, &idx, MPI_STATUS_IGNORE);
            more = ++served[idx] < ROUNDS;
            MPI_Send(&more, 1, MPI_INT, idx + 1, 1, MPI_COMM_WORLD);
            if (more)
                MPI_Irecv(&in[idx], 1, MPI_INT, idx + 1, 0, MPI_COMM_WORLD, &reqs[idx]);
            else
                open--;
        }
    } else {
        int more = 1;
        while (more) {
            MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
            MPI_Recv(&more, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    MPI_Finalize();
    return 0;
}
