/* Rank 1 exchanges with rank 0 in an MPI_Sendrecv whose receive tag is -5 (the program's "no
 * tag" marker): a receive takes MPI_ANY_TAG (-1 in both MPIs), never another negative tag. MPI
 * refuses the whole call; rank 0 does not take part. Errors return here, so the job goes on.
 * Issue 28 items 2 and 8.
 * np: 2
 * slice: none
 * expect: tag_out_of_range ranks 1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, out = 1, in = 0, no_tag = -5;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1)
        MPI_Sendrecv(&out, 1, MPI_INT, 0, 0, &in, 1, MPI_INT, 0, no_tag, /* <- reported */
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
