/* Rank 0 commits a pair type and builds a vector of pairs on it, but commits only the inner type
 * and sends with the outer one. Errors return here, so the job goes on. Issue 28 items 2 and 8
 * (derived types built on derived types).
 * np: 2
 * slice: none
 * expect: datatype_uncommitted ranks 0 line 21
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, values[16] = {0};
    MPI_Datatype pair, every_other_pair;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Type_vector(4, 1, 2, pair, &every_other_pair);
    if (rank == 0)
        MPI_Send(values, 1, every_other_pair, 1, 0, MPI_COMM_WORLD); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Type_free(&every_other_pair);
    MPI_Type_free(&pair);
    MPI_Finalize();
    return 0;
}
