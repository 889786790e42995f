/* The ranks duplicate MPI_COMM_WORLD and start MPI_Ineighbor_alltoall on the copy, which has no
 * process topology (a duplicate keeps its parent's, and the world has none). Errors return on the
 * copy, so the job goes on under MPICH (Open MPI 4.1 crashes in the call). Issue 28 item 2.
 * np: 2
 * mpi: completes abort
 * expect: topology_missing ranks 0 line 20
 * expect: topology_missing ranks 1 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, out[2] = {0, 0}, in[2];
    MPI_Comm copy;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &copy);
    MPI_Comm_set_errhandler(copy, MPI_ERRORS_RETURN);
    if (MPI_Ineighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, copy, &req) /* <- reported */
        == MPI_SUCCESS)
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Comm_free(&copy);
    MPI_Finalize();
    return 0;
}
