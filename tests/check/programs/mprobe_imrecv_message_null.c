/* Rank 0 polls once with MPI_Improbe before rank 1 has sent (the barrier orders them), ignores the
 * flag, and posts MPI_Imrecv with the handle the failed probe left, MPI_MESSAGE_NULL; it then
 * probes properly and receives the message. Errors return here, so the job goes on. Issue 28
 * items 1 and 2 (Imrecv's arguments).
 * np: 2
 * slice: none
 * expect: message_null ranks 0 line 24
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, flag = 0, x = 7;
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Improbe(1, 0, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
        if (MPI_Imrecv(&x, 1, MPI_INT, &msg, &req) == MPI_SUCCESS) /* <- reported */
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Mprobe(1, 0, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
        MPI_Mrecv(&x, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
