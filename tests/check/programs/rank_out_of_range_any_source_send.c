/* Rank 1 answers "whoever asked" by sending to MPI_ANY_SOURCE instead of the source its receive's
 * status names: a wildcard is a source for receives only. Errors return here, so the job goes on.
 * Issue 28 items 2 and 8 (wildcards).
 * np: 2
 * slice: none
 * expect: rank_out_of_range ranks 1 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, question = 1, answer = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Send(&question, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&question, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&answer, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD); /* <- reported */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
