/* Rank 1's first receive is truncated (errors return here: the MPI_Test that completes it returns
 * MPI_ERR_TRUNCATE, and both MPIs free the request and null its handle as a Wait does); it then
 * receives into the same buffer again with new requests, which MPI may hand the freed one's
 * handle, and waits on them. The truncation is the only finding: the first request is no longer
 * pending on the buffer, the new ones are live, not freed ones. Issue 28 (a Test that returns an
 * error).
 * np: 2
 * slice: mpich
 * expect: truncation ranks 0,1 line 30
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, flag = 0, value[4] = {1, 2, 3, 4};
    MPI_Request req;
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        MPI_Irecv(value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        while (MPI_Test(&req, &flag, &status) == MPI_SUCCESS && !flag)
            continue;
        for (int t = 1; t < 3; t++) {
            MPI_Irecv(value, 4, MPI_INT, MPI_ANY_SOURCE, t, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, &status);
        }
    } else {
        MPI_Send(value, 4, MPI_INT, 1, 0, MPI_COMM_WORLD); /* <- reported */
        MPI_Send(value, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Send(value, 4, MPI_INT, 1, 2, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
