/* Rank 0 receives the message it probed, then receives it again with the same handle: the first
 * MPI_Mrecv set the handle to MPI_MESSAGE_NULL, so the second names no message. Errors return
 * here, so the job goes on. Issue 28 items 1 and 2 (Mrecv's arguments).
 * np: 2
 * slice: mpich
 * expect: message_null ranks 0 line 23
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 7;
    MPI_Message msg;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Mprobe(1, 0, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
        MPI_Mrecv(&x, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
        /* meant to receive the next message, whose probe was forgotten */
        MPI_Mrecv(&x, 1, MPI_INT, &msg, MPI_STATUS_IGNORE); /* <- reported */
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
