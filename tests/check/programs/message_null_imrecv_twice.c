/* Rank 0 receives the message it probed with MPI_Imrecv, then posts MPI_Imrecv again with the same
 * handle, which the first one set to MPI_MESSAGE_NULL. Errors return here, so the job goes on.
 * Issue 28 item 2 (Imrecv's arguments).
 * np: 2
 * slice: none
 * expect: message_null ranks 0 line 24
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 7;
    MPI_Message msg;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Mprobe(1, 0, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
        MPI_Imrecv(&x, 1, MPI_INT, &msg, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (MPI_Imrecv(&x, 1, MPI_INT, &msg, &req) == MPI_SUCCESS) /* <- reported */
            MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
