/* Rank 1 keeps a persistent send of its resized type, frees the type through a copy of the handle
 * (legal: the request still holds it), then exchanges in place with MPI_PROC_NULL (the edge of its
 * line of ranks) with the original handle: a datatype used after MPI_Type_free. MPI keeps the type
 * alive for the request, so the call goes through. Issue 28 items 2 and 8 (derived types:
 * resized).
 * np: 2
 * slice: none
 * expect: datatype_freed ranks 1 line 26
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, values[8] = {0};
    MPI_Datatype spaced, copy;
    MPI_Request keep;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &spaced);
        MPI_Type_commit(&spaced);
        MPI_Send_init(values, 4, spaced, 0, 0, MPI_COMM_WORLD, &keep);
        copy = spaced;
        MPI_Type_free(&copy);
        MPI_Sendrecv_replace(values, 4, spaced, MPI_PROC_NULL, 0, MPI_PROC_NULL, /* <- reported */
                             0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Request_free(&keep);
    }
    MPI_Finalize();
    return 0;
}
