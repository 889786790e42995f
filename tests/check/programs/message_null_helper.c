/* Rank 0's helper receives the message its handle names; the caller passes a handle no probe set
 * (MPI_MESSAGE_NULL), then probes and calls it again properly. The finding names the helper's
 * MPI_Mrecv. Errors return here, so the job goes on. Issue 28 item 2 (Mrecv's arguments).
 * np: 2
 * slice: none
 * expect: message_null ranks 0 line 18
 * mpi: completes
 */
#include <mpi.h>

struct inbox {
    MPI_Message next;
    int value;
};

static void inbox_take(struct inbox *in)
{
    MPI_Mrecv(&in->value, 1, MPI_INT, &in->next, MPI_STATUS_IGNORE); /* <- reported */
}

int main(int argc, char **argv)
{
    int rank, x = 7;
    struct inbox in = {MPI_MESSAGE_NULL, 0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (rank == 0) {
        inbox_take(&in);
        MPI_Mprobe(1, 0, MPI_COMM_WORLD, &in.next, MPI_STATUS_IGNORE);
        inbox_take(&in);
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
