/* Rank 0 keeps a copy of a generalized request and waits on both: the first MPI_Wait completes
 * and frees it, so the second waits on a request already freed, reported before the call reaches
 * MPI. Open MPI only: MPICH's second Wait asserts on the freed request's count before it returns.
 * Issue 28 (generalized requests).
 * np: 2
 * flavors: openmpi
 * slice: none
 * mpi: completes abort
 * expect: request_freed ranks 0 line 27
 */
#include <mpi.h>

#include "grequest_callbacks.h"

int main(int argc, char **argv)
{
    int rank;
    MPI_Request req, copy;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Grequest_start(query, release, cancel, NULL, &req);
        copy = req;
        MPI_Grequest_complete(req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Wait(&copy, MPI_STATUS_IGNORE); /* <- reported */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
