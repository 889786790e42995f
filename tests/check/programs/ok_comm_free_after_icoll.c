/* MPI_Comm_free of a communicator whose nonblocking collectives were all completed, and
 * MPI_Type_free of the type of a pending nonblocking collective before its Wait (legal: the
 * request keeps what it needs, MPI 3.1 §4.1.9): nothing to report. Issue 28 item 3.
 * np: 3
 * slice: none
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sum = 0, pair[2] = {0};
    MPI_Comm comm;
    MPI_Datatype two_ints;
    MPI_Request requests[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Type_contiguous(2, MPI_INT, &two_ints);
    MPI_Type_commit(&two_ints);
    if (rank == 0)
        pair[0] = pair[1] = 7;
    MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm, &requests[0]);
    MPI_Ibcast(pair, 1, two_ints, 0, comm, &requests[1]);
    MPI_Type_free(&two_ints);
    MPI_Ibarrier(comm, &requests[2]);
    MPI_Waitall(3, requests, MPI_STATUSES_IGNORE);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return sum == 3 && pair[1] == 7 ? 0 : 1;
}
