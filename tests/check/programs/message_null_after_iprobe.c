/* Rank 0 waits for the message with MPI_Iprobe, then receives it with MPI_Mrecv as if it had
 * called MPI_Mprobe: its handle is still MPI_MESSAGE_NULL. It then probes properly and receives
 * the message. Errors return here, so the job goes on. Issue 28 item 2 (Mrecv's arguments).
 * np: 2
 * slice: none
 * expect: message_null ranks 0 line 23
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, flag = 0, x = 7;
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (rank == 0) {
        while (!flag)
            MPI_Iprobe(1, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        /* the probe that sets a message handle is MPI_Mprobe or MPI_Improbe */
        MPI_Mrecv(&x, 1, MPI_INT, &msg, MPI_STATUS_IGNORE); /* <- reported */
        MPI_Mprobe(1, 0, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
        MPI_Mrecv(&x, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
