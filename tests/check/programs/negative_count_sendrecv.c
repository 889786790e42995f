/* Rank 0 exchanges with rank 1 in one MPI_Sendrecv whose receive count is negative (the send side
 * is fine); MPI refuses the whole call. Rank 1 does not take part. Errors return here, so the job
 * goes on. Issue 28 items 2 and 8.
 * np: 2
 * slice: none
 * expect: negative_count ranks 0 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, out[2] = {0}, in[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0)
        MPI_Sendrecv(out, 2, MPI_INT, 1, 0, in, -2, MPI_INT, 1, 0, MPI_COMM_WORLD, /* <- reported */
                     MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
