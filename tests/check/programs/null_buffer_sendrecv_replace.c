/* Rank 1 exchanges in place with its MPI_PROC_NULL neighbours (the edge of a line of ranks) from a
 * buffer it never allocated: a NULL buffer with a positive count, refused even though nothing
 * would move. Errors return here, so the job goes on. Issue 28 items 2 and 8.
 * np: 2
 * slice: none
 * expect: null_buffer ranks 1 line 18
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, *halo = NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1)
        MPI_Sendrecv_replace(halo, 3, MPI_INT, MPI_PROC_NULL, 0, MPI_PROC_NULL, 0, /* <- reported */
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
