/* Rank 1 receives three messages into buffers of 3 ints with Irecvs completed by one Waitall;
 * rank 0 sends the second with 6 ints. Errors return here: the Waitall returns
 * MPI_ERR_IN_STATUS, and the program waits again on the requests MPI left pending (MPICH stops
 * at the failed one and leaves those after it active, MPI_ERR_PENDING in their status; Open MPI
 * completes them all). Issue 28 (requests MPI completes or frees on an error).
 * np: 2
 * slice: none
 * expect: truncation ranks 0,1 line 30
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, data[3][6] = {{0}};
    MPI_Request requests[3];
    MPI_Status statuses[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        for (int t = 0; t < 3; t++)
            MPI_Irecv(data[t], 3, MPI_INT, 0, t, MPI_COMM_WORLD, &requests[t]);
        if (MPI_Waitall(3, requests, statuses) == MPI_ERR_IN_STATUS)
            for (int t = 0; t < 3; t++)
                if (statuses[t].MPI_ERROR == MPI_ERR_PENDING)
                    MPI_Wait(&requests[t], MPI_STATUS_IGNORE);
    } else {
        for (int t = 0; t < 3; t++)
            MPI_Send(data[t], t == 1 ? 6 : 3, MPI_INT, 1, t, MPI_COMM_WORLD); /* <- reported */
    }
    MPI_Finalize();
    return 0;
}
