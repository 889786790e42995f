/* Rank 1 receives three messages with persistent receives of 3 ints, started together and
 * completed one at a time by Waitany; rank 0 sends the second with 6 ints. Errors return here:
 * the Waitany that completes that receive returns MPI_ERR_TRUNCATE with its index. Open MPI then
 * frees the request and nulls its handle, MPICH leaves it inactive; the program frees what is
 * left. Issue 28 (requests MPI completes or frees on an error).
 * np: 2
 * slice: none
 * expect: truncation ranks 0,1 line 31
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, data[3][6] = {{0}}, index;
    MPI_Request requests[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        for (int t = 0; t < 3; t++)
            MPI_Recv_init(data[t], 3, MPI_INT, 0, t, MPI_COMM_WORLD, &requests[t]);
        MPI_Startall(3, requests);
        for (int done = 0; done < 3; done++)
            MPI_Waitany(3, requests, &index, MPI_STATUS_IGNORE);
        for (int t = 0; t < 3; t++)
            if (requests[t] != MPI_REQUEST_NULL)
                MPI_Request_free(&requests[t]);
    } else {
        for (int t = 0; t < 3; t++)
            MPI_Send(data[t], t == 1 ? 6 : 3, MPI_INT, 1, t, MPI_COMM_WORLD); /* <- reported */
    }
    MPI_Finalize();
    return 0;
}
