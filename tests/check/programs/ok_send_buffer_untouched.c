/* Correct: every rank sends its buffer around a ring with Isend and writes it only after the
 * Wait; the receive goes to another buffer, and a second send of the same buffer in flight
 * at once only reads it. Issue 28 item 4.
 * np: 3
 * slice: mpich
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, out[16], in[16], copy[16];
    MPI_Request requests[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 16; i++)
        out[i] = rank * 100 + i;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Isend(out, 16, MPI_INT, next, 0, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(out, 16, MPI_INT, prev, 1, MPI_COMM_WORLD, &requests[1]);
    MPI_Recv(in, 16, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(copy, 16, MPI_INT, next, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    out[0] = in[0] + copy[0];
    MPI_Finalize();
    return out[0] < 0;
}
