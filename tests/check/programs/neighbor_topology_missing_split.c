/* The ranks split the world in two halves and call MPI_Neighbor_alltoallv on their half, a
 * communicator without a process topology. Errors return on it, so the job goes on under MPICH
 * (Open MPI 4.1 aborts in the call). Issue 28 item 2.
 * np: 4
 * mpi: completes abort
 * slice: mpich
 * expect: topology_missing ranks 0 line 22
 * expect: topology_missing ranks 1 line 22
 * expect: topology_missing ranks 2 line 22
 * expect: topology_missing ranks 3 line 22
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, counts[2] = {1, 1}, displs[2] = {0, 1}, out[2] = {0, 0}, in[2];
    MPI_Comm half;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &half);
    MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
    MPI_Neighbor_alltoallv(out, counts, displs, MPI_INT, in, counts, displs, MPI_INT, /* <- reported */
                           half);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
