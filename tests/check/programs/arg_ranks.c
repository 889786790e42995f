/* Ranks and roots outside the communicator (a world of 2): a send to 2, an Isend to -7, an Irecv
 * from 7, an Ssend to 2 on a duplicate of the world, a Bcast with root 5 and a Reduce with root
 * -3 on every rank. Errors return here, so the job goes on; each call still reaches MPI, which
 * refuses it. Issue 28 item 2.
 * np: 2
 * expect: rank_out_of_range ranks 0 line 27
 * expect: rank_out_of_range ranks 0 line 28
 * expect: rank_out_of_range ranks 0 line 29
 * expect: rank_out_of_range ranks 0 line 30
 * expect: root_out_of_range ranks 0 line 32
 * expect: root_out_of_range ranks 1 line 32
 * expect: root_out_of_range ranks 0 line 33
 * expect: root_out_of_range ranks 1 line 33
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, data[4] = {0}, sum[4];
    MPI_Comm dup;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    if (rank == 0) {
        MPI_Send(data, 4, MPI_INT, 2, 0, MPI_COMM_WORLD);
        MPI_Isend(data, 4, MPI_INT, -7, 0, MPI_COMM_WORLD, &request);
        MPI_Irecv(data, 4, MPI_INT, 7, 0, MPI_COMM_WORLD, &request);
        MPI_Ssend(data, 4, MPI_INT, 2, 0, dup);
    }
    MPI_Bcast(data, 4, MPI_INT, 5, MPI_COMM_WORLD);
    MPI_Reduce(data, sum, 4, MPI_INT, MPI_SUM, -3, MPI_COMM_WORLD);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
