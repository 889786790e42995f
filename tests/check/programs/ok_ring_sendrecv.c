/* A ring shift with MPI_Sendrecv, five rounds, checking that each value travelled.
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
    for (int it = 0; it < 5; it++) {
        int out = rank * 10 + it, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, right, it, &in, 1, MPI_INT, left, it, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        bad |= in != left * 10 + it;
    }
    MPI_Finalize();
    return bad;
}
