/* Rank 0 sends with MPI_ANY_TAG, meaning "any tag will do": a wildcard is a tag for receives
 * only. Errors return here, so the job goes on. Issue 28 items 2 and 8 (wildcards).
 * np: 2
 * slice: mpich
 * expect: tag_out_of_range ranks 0 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 4;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0)
        MPI_Isend(&value, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &request); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
