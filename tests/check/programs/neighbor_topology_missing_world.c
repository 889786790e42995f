/* Every rank calls MPI_Neighbor_allgather on MPI_COMM_WORLD, which has no process topology: MPI
 * refuses the call with MPI_ERR_TOPOLOGY. Errors return, so the job goes on. Issue 28 item 2.
 * np: 2
 * expect: topology_missing ranks 0 line 15
 * expect: topology_missing ranks 1 line 15
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, got[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
