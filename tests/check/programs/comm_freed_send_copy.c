/* Rank 0 keeps a copy of its duplicate of the world, frees the duplicate (MPI_Comm_free sets only
 * the handle it was given to MPI_COMM_NULL) and sends on the copy: a communicator used after
 * MPI_Comm_free, reported before the call reaches MPI (MPICH returns MPI_ERR_COMM here, Open MPI
 * crashes in the call). Issue 28 item 2.
 * np: 2
 * slice: mpich
 * mpi: completes abort
 * expect: comm_freed ranks 0 line 23
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 5;
    MPI_Comm dup, copy;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    copy = dup;
    MPI_Comm_free(&dup);
    if (rank == 0)
        MPI_Send(&value, 1, MPI_INT, MPI_PROC_NULL, 0, copy); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
