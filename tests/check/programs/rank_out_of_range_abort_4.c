/* Rank 3 of 4 sends to rank 7 under MPI_ERRORS_RETURN and calls MPI_Abort on the error MPI
 * returns, while the others wait in a Barrier: the send is reported, with its line, and the ranks
 * left waiting on rank 3 are folded into its finding as in rank_out_of_range_barrier_4. Under
 * --detector-leaves 2 the root may get rank 3's records before the others' first Barrier: its
 * abort then waits behind its held records, or the send is never analysed
 * (check_leaves_rank_out_of_range_abort_4_*). Issue 28.
 * np: 4
 * slice: mpich
 * mpi: abort
 * expect: rank_out_of_range ranks 3 line 23
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 3) {
        int rc;
        rc = MPI_Send(&value, 1, MPI_INT, 7, 0, MPI_COMM_WORLD); /* <- reported */
        if (rc != MPI_SUCCESS)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
