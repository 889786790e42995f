/* Rank 1 calls MPI_Neighbor_allgatherv on MPI_COMM_SELF, which has no process topology; rank 0
 * makes no such call. Errors return, so the job goes on under MPICH (Open MPI 4.1 crashes in the
 * call). Issue 28 item 2.
 * np: 2
 * mpi: completes abort
 * slice: mpich
 * expect: topology_missing ranks 1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, counts[1] = {1}, displs[1] = {0}, got[1];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (rank == 1)
        MPI_Neighbor_allgatherv(&rank, 1, MPI_INT, got, counts, displs, MPI_INT, /* <- reported */
                                MPI_COMM_SELF);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
