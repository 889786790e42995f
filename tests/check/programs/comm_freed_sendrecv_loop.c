/* An exchange loop frees its row communicator at the last iteration but one and goes on using
 * the handle it read before the loop (rank 0 exchanges with MPI_PROC_NULL, a boundary):
 * MPI_Sendrecv on a communicator already freed, reported once for the one call. Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes abort
 * expect: comm_freed ranks 0 line 27
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, out = 1, in = 0;
    MPI_Comm row;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &row);
    const MPI_Comm used = row;
    for (int step = 0; step < 2; step++) {
        if (step == 1) {
            MPI_Comm_free(&row);
            if (rank != 0)
                break;
        }
        int boundary = MPI_PROC_NULL;
        MPI_Sendrecv(&out, 1, MPI_INT, boundary, 0, &in, 1, MPI_INT, boundary, 0, used, /* <- */
                     MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
