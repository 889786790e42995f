/* Null and uncommitted handles: a Send and an Irecv on MPI_COMM_NULL, a Send and an Irecv of
 * MPI_DATATYPE_NULL, a Send and an Irecv of a datatype never committed. Errors return here, so the
 * job goes on; each call still reaches MPI, which refuses it. (A copy of a freed datatype's handle
 * is reported as datatype_freed too, but both MPIs then crash in the call.) Issue 28 item 2.
 * np: 2
 * expect: comm_null ranks 0 line 27
 * expect: comm_null ranks 0 line 28
 * expect: datatype_null ranks 0 line 29
 * expect: datatype_null ranks 0 line 30
 * expect: datatype_uncommitted ranks 0 line 31
 * expect: datatype_uncommitted ranks 0 line 32
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, data[8] = {0};
    MPI_Datatype pair;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    if (rank == 0) {
        /* each call below is wrong in one argument */
        MPI_Send(data, 4, MPI_INT, 1, 0, MPI_COMM_NULL);
        MPI_Irecv(data, 4, MPI_INT, 1, 0, MPI_COMM_NULL, &request);
        MPI_Send(data, 4, MPI_DATATYPE_NULL, 1, 0, MPI_COMM_WORLD);
        MPI_Irecv(data, 1, MPI_DATATYPE_NULL, 1, 0, MPI_COMM_WORLD, &request);
        MPI_Send(data, 2, pair, 1, 0, MPI_COMM_WORLD);
        MPI_Irecv(data, 2, pair, 1, 0, MPI_COMM_WORLD, &request);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Type_free(&pair);
    MPI_Finalize();
    return 0;
}
