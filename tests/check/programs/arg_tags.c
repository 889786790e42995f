/* Tags outside [0, MPI_TAG_UB]: a Send with -5, an Isend with MPI_TAG_UB + 1, a Recv with
 * MPI_TAG_UB + 1, an Irecv with -3, a Send_init with -2. Errors return here, so the job goes on;
 * each call still reaches MPI, which refuses it. Issue 28 item 2.
 * np: 2
 * expect: tag_out_of_range ranks 0 line 23
 * expect: tag_out_of_range ranks 0 line 24
 * expect: tag_out_of_range ranks 0 line 25
 * expect: tag_out_of_range ranks 0 line 26
 * expect: tag_out_of_range ranks 0 line 27
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, data[4] = {0}, *ub, flag;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    int above = *ub + 1;
    if (rank == 0) {
        MPI_Send(data, 4, MPI_INT, 1, -5, MPI_COMM_WORLD);
        MPI_Isend(data, 4, MPI_INT, 1, above, MPI_COMM_WORLD, &request);
        MPI_Recv(data, 4, MPI_INT, 1, above, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Irecv(data, 4, MPI_INT, 1, -3, MPI_COMM_WORLD, &request);
        MPI_Send_init(data, 4, MPI_INT, 1, -2, MPI_COMM_WORLD, &request);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
