/* Matched probes used correctly: rank 0 receives rank 1's two MPI_INT with MPI_Mprobe and
 * MPI_Mrecv as one contiguous pair (the same signature), rank 2's two with MPI_Improbe and
 * MPI_Imrecv into a longer receive of 4 (legal), probes MPI_PROC_NULL and receives the
 * MPI_MESSAGE_NO_PROC it gets, and receives a message of no element into a NULL buffer.
 * Issue 28 item 1.
 * np: 3
 * expect: clean
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, flag = 0, data[4] = {1, 2, 3, 4};
    MPI_Datatype pair;
    MPI_Message msg;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    if (rank == 0) {
        MPI_Mprobe(1, 0, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
        MPI_Mrecv(data, 1, pair, &msg, MPI_STATUS_IGNORE);
        do
            MPI_Improbe(2, 0, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE);
        while (!flag);
        MPI_Imrecv(data, 4, MPI_INT, &msg, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
        MPI_Mrecv(data, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
        MPI_Mprobe(1, 1, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
        MPI_Mrecv(NULL, 0, MPI_INT, &msg, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(data, 2, MPI_INT, 0, 0, MPI_COMM_WORLD);
        if (rank == 1)
            MPI_Send(NULL, 0, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Type_free(&pair);
    MPI_Finalize();
    return 0;
}
