/* Rank 1 receives three messages into buffers of 3 ints with Irecvs polled with Testany; rank 0
 * sends the second with 6 ints. Errors return here: the Testany that completes that receive
 * returns MPI_ERR_TRUNCATE with its index, and both MPIs free the request and null its handle.
 * Issue 28 (requests MPI completes or frees on an error).
 * np: 2
 * slice: none
 * expect: truncation ranks 0,1 line 27
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, data[3][6] = {{0}}, index, flag;
    MPI_Request requests[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        for (int t = 0; t < 3; t++)
            MPI_Irecv(data[t], 3, MPI_INT, 0, t, MPI_COMM_WORLD, &requests[t]);
        for (int done = 0; done < 3;)
            if (MPI_Testany(3, requests, &index, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || flag)
                done++;
    } else {
        for (int t = 0; t < 3; t++)
            MPI_Send(data[t], t == 1 ? 6 : 3, MPI_INT, 1, t, MPI_COMM_WORLD); /* <- reported */
    }
    MPI_Finalize();
    return 0;
}
