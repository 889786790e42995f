/* Rank 0 keeps a persistent receive of a dup of MPI_DOUBLE, frees the dup through a copy of the
 * handle (legal: the request still holds it), and then starts a nonblocking broadcast on
 * MPI_COMM_SELF with the original handle: a datatype used after MPI_Type_free. MPI keeps the type
 * alive for the request, so the call goes through. Issue 28 items 2 and 8 (nonblocking
 * collectives, derived types: dup).
 * np: 2
 * slice: none
 * expect: datatype_freed ranks 0 line 27
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    double values[3] = {0};
    MPI_Datatype real, copy;
    MPI_Request keep, request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Type_dup(MPI_DOUBLE, &real);
        MPI_Recv_init(values, 3, real, 1, 0, MPI_COMM_WORLD, &keep);
        copy = real;
        MPI_Type_free(&copy);
        MPI_Ibcast(values, 3, real, 0, MPI_COMM_SELF, &request); /* <- reported */
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        MPI_Request_free(&keep);
    }
    MPI_Finalize();
    return 0;
}
