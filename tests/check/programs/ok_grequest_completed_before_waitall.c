/* Each rank starts two generalized requests and an Irecv of its neighbour's number, completes
 * the generalized ones, then completes all three with one MPI_Waitall: every request is complete
 * before MPI_Finalize and none is waited twice. Issue 28 (generalized requests).
 * np: 2
 * expect: clean
 */
#include <mpi.h>

#include "grequest_callbacks.h"

int main(int argc, char **argv)
{
    int rank, size, got = -1;
    MPI_Request reqs[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Grequest_start(query, release, cancel, NULL, &reqs[0]);
    MPI_Irecv(&got, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &reqs[1]);
    MPI_Grequest_start(query, release, cancel, NULL, &reqs[2]);
    MPI_Grequest_complete(reqs[2]);
    MPI_Send(&rank, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
    MPI_Grequest_complete(reqs[0]);
    MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
    MPI_Finalize();
    return got == (rank + size - 1) % size ? 0 : 1;
}
