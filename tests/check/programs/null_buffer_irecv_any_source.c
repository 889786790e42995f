/* Rank 0 posts a wildcard receive (MPI_ANY_SOURCE) of 4 doubles into a NULL buffer; MPI refuses it
 * before any message is matched. Errors return here, so the job goes on. Issue 28 items 2 and 8
 * (wildcards).
 * np: 2
 * slice: none
 * expect: null_buffer ranks 0 line 20
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank;
    double *results = NULL;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0)
        MPI_Irecv(results, 4, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
                  &request); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
