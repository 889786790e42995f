/* A ring whose sends are MPI-4 large-count calls and whose receives are int ones: MPI_Send_c
 * matched by MPI_Recv (even ranks send first, so no cycle), then MPI_Isend_c with MPI_Irecv, then
 * MPI_Sendrecv_c against MPI_Sendrecv. The checker must match each `_c` send with its int receive.
 * MPICH only: Open MPI 4.1 has no MPI-4 large-count `_c` functions.
 * flavors: mpich
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
    for (int round = 0; round < 5; round++) {
        int out = rank * 100 + round, in = -1;
        if (rank % 2 == 0) {
            MPI_Send_c(&out, 1, MPI_INT, right, round, MPI_COMM_WORLD);
            MPI_Recv(&in, 1, MPI_INT, left, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&in, 1, MPI_INT, left, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send_c(&out, 1, MPI_INT, right, round, MPI_COMM_WORLD);
        }
        bad |= in != left * 100 + round;

        MPI_Request reqs[2];
        MPI_Irecv(&in, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &reqs[0]);
        MPI_Isend_c(&out, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &reqs[1]);
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
        bad |= in != left * 100 + round;

        if (rank % 2 == 0)
            MPI_Sendrecv_c(&out, 1, MPI_INT, right, 8, &in, 1, MPI_INT, left, 8, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE);
        else
            MPI_Sendrecv(&out, 1, MPI_INT, right, 8, &in, 1, MPI_INT, left, 8, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        bad |= in != left * 100 + round;
    }
    MPI_Finalize();
    return bad;
}
