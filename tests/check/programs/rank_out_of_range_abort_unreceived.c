/* Rank 0 sends rank 1 a message it never receives (MPI buffers it), sends to rank 7 under
 * MPI_ERRORS_RETURN, and aborts on the error; rank 1, outside MPI, is killed with the job. Rank
 * 0's later records are held behind the first Send, which no receive satisfies: they come out
 * when the job has ended, so the send is reported with its line (before, nothing). Issue 28.
 * slice: mpich
 * np: 2
 * mpi: abort
 * expect: rank_out_of_range ranks 0 line 22
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        int rc;
        MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        rc = MPI_Send(&value, 1, MPI_INT, 7, 0, MPI_COMM_WORLD); /* <- reported */
        if (rc != MPI_SUCCESS)
            MPI_Abort(MPI_COMM_WORLD, 1);
    } else {
        sleep(20); /* the abort ends the job first */
    }
    MPI_Finalize();
    return 0;
}
