/* Rank 0 keeps a persistent receive of its pair type and frees the type through a copy of the
 * handle (legal: the request still holds it), then sends with the original handle at the edge of
 * its line of ranks (MPI_PROC_NULL): a datatype used after MPI_Type_free. MPI keeps the type alive
 * for the request, so the call itself goes through. Issue 28 items 2 and 8.
 * np: 2
 * slice: mpich
 * expect: datatype_freed ranks 0 line 25
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, values[2] = {0};
    MPI_Datatype pair, copy;
    MPI_Request keep;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    if (rank == 0) {
        MPI_Recv_init(values, 1, pair, 1, 0, MPI_COMM_WORLD, &keep);
        copy = pair;
        MPI_Type_free(&copy);
        MPI_Send(values, 1, pair, MPI_PROC_NULL, 0, MPI_COMM_WORLD); /* <- reported */
        MPI_Request_free(&keep);
    } else {
        MPI_Type_free(&pair);
    }
    MPI_Finalize();
    return 0;
}
