/* Rank 0 waits on a generalized request it never completes (no MPI_Grequest_complete: with one
 * MPI thread nothing else can) while rank 1 waits in a Barrier: rank 0 waits for itself.
 * Issue 28 (generalized requests).
 * np: 2
 * slice: mpich
 * expect: deadlock ranks 0,1 knot 0 line 20
 */
#include <mpi.h>

#include "grequest_callbacks.h"

int main(int argc, char **argv)
{
    int rank;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Grequest_start(query, release, cancel, NULL, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE); /* <- reported */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
