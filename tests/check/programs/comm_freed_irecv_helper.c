/* A helper receives on the communicator its module saved at setup; the program frees that
 * communicator at "teardown" and then calls the helper once more (rank 0): an MPI_Irecv on a
 * communicator already freed, reported at the helper's line. Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes abort
 * expect: comm_freed ranks 0 line 16
 */
#include <mpi.h>

static MPI_Comm saved;

static void receive_boundary(int *value)
{
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Irecv(value, 1, MPI_INT, MPI_PROC_NULL, 0, saved, &request); /* <- reported */
    MPI_Wait(&request, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Comm mine;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &mine);
    saved = mine;
    receive_boundary(&value);
    MPI_Comm_free(&mine);
    if (rank == 0)
        receive_boundary(&value);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
