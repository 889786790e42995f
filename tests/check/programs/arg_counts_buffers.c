/* Negative counts (a Send, an Irecv, a Bcast on every rank) and NULL buffers with a positive count
 * of a predefined type (a Send, a Recv from MPI_PROC_NULL, a Send_init). Errors return here, so
 * the job goes on; each call still reaches MPI, which refuses it. Issue 28 item 2.
 * np: 2
 * expect: negative_count ranks 0 line 25
 * expect: negative_count ranks 0 line 26
 * expect: negative_count ranks 0 line 31
 * expect: negative_count ranks 1 line 31
 * expect: null_buffer ranks 0 line 27
 * expect: null_buffer ranks 0 line 28
 * expect: null_buffer ranks 0 line 29
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, data[4] = {0};
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Send(data, -1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Irecv(data, -4, MPI_INT, 1, 0, MPI_COMM_WORLD, &request);
        MPI_Send(NULL, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(NULL, 2, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        MPI_Send_init(NULL, 1, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &request);
    }
    MPI_Bcast(data, -2, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
