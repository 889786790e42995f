/* Root 0 gathers one value per rank with MPI_Gatherv into a table it allocates only for more than
 * four ranks (a forgotten branch): its receive buffer is NULL while its counts are positive.
 * Errors return here; MPICH refuses the call, and the root gathers again into a real table.
 * MPICH only: Open MPI takes the call and crashes inside it, writing the root's own value at
 * NULL. Issue 28 item 2 (V and W collectives per peer).
 * np: 3
 * flavors: mpich
 * expect: null_buffer ranks 0 line 26
 * mpi: completes abort
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, value, table[3] = {0}, *big = NULL, counts[3] = {1, 1, 1};
    int displs[3] = {0, 1, 2};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    value = 100 + rank;
    if (rank == 0) {
        if (size > 4)
            big = malloc(size * sizeof *big);
        int rc = MPI_Gatherv(&value, 1, MPI_INT, big, counts, displs, MPI_INT, 0, MPI_COMM_WORLD); /* <- reported */
        if (rc == MPI_SUCCESS)
            return 1;
    }
    MPI_Gatherv(&value, 1, MPI_INT, table, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
    free(big);
    MPI_Finalize();
    return rank != 0 || table[2] == 102 ? 0 : 1;
}
