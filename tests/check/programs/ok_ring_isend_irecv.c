/* A halo exchange with both neighbours through Irecv/Isend and one Waitall, ten rounds.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int it = 0; it < 10; it++) {
        int in[2], out[2] = {rank, rank};
        MPI_Request reqs[4];
        MPI_Irecv(&in[0], 1, MPI_INT, left, 0, MPI_COMM_WORLD, &reqs[0]);
        MPI_Irecv(&in[1], 1, MPI_INT, right, 1, MPI_COMM_WORLD, &reqs[1]);
        MPI_Isend(&out[0], 1, MPI_INT, right, 0, MPI_COMM_WORLD, &reqs[2]);
        MPI_Isend(&out[1], 1, MPI_INT, left, 1, MPI_COMM_WORLD, &reqs[3]);
        MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
        bad |= in[0] != left || in[1] != right;
    }
    MPI_Finalize();
    return bad;
}
