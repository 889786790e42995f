/* Correct: count 0 with a NULL buffer is legal in every call: an Isend/Irecv pair between the
 * ranks, a persistent send and receive, a Sendrecv, a Bcast, an Allreduce and a nonblocking
 * Iallreduce, with predefined and derived (committed) types. Issue 28 item 8 (bad input: count 0
 * with a NULL buffer).
 * np: 2
 * slice: mpich
 * expect: clean
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, other;
    MPI_Datatype pair;
    MPI_Request requests[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Isend(NULL, 0, MPI_INT, other, 0, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(NULL, 0, MPI_INT, other, 0, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    MPI_Send_init(NULL, 0, pair, other, 1, MPI_COMM_WORLD, &requests[0]);
    MPI_Recv_init(NULL, 0, pair, other, 1, MPI_COMM_WORLD, &requests[1]);
    MPI_Startall(2, requests);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    MPI_Request_free(&requests[0]);
    MPI_Request_free(&requests[1]);
    MPI_Sendrecv(NULL, 0, MPI_DOUBLE, other, 2, NULL, 0, MPI_DOUBLE, other, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Bcast(NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Allreduce(NULL, NULL, 0, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Iallreduce(NULL, NULL, 0, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &requests[0]);
    MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
    MPI_Type_free(&pair);
    MPI_Finalize();
    return 0;
}
