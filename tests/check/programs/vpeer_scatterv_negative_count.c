/* Root 1 scatters a table with MPI_Scatterv, its count for rank 0 the size of an empty share
 * minus one (a negative count), which MPI refuses at the root before anything moves; errors
 * return here, and the root scatters again with the right counts, which the others' call
 * matches. Issue 28 item 2 (V and W collectives per peer).
 * np: 3
 * slice: none
 * expect: negative_count ranks 1 line 20
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, table[3] = {10, 11, 12}, mine = -1, counts[3] = {1, 1, 1}, displs[3] = {0, 1, 2};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        int bad[3] = {0 - 1, 1, 1};
        int rc = MPI_Scatterv(table, bad, displs, MPI_INT, &mine, 1, MPI_INT, 1, MPI_COMM_WORLD); /* <- reported */
        if (rc == MPI_SUCCESS)
            return 1;
    }
    MPI_Scatterv(table, counts, displs, MPI_INT, &mine, 1, MPI_INT, 1, MPI_COMM_WORLD);
    MPI_Finalize();
    return mine == 10 + rank ? 0 : 1;
}
