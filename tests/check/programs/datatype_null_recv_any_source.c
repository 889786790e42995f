/* Rank 1 posts a wildcard receive (MPI_ANY_SOURCE, MPI_ANY_TAG) of MPI_DATATYPE_NULL; MPI refuses
 * it before any message is matched. Errors return here, so the job goes on. Issue 28 items 2 and
 * 8 (wildcards).
 * np: 2
 * slice: none
 * expect: datatype_null ranks 1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1)
        MPI_Irecv(&value, 1, MPI_DATATYPE_NULL, MPI_ANY_SOURCE, MPI_ANY_TAG, /* <- reported */
                  MPI_COMM_WORLD, &request);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
