/* Each rank starts a generalized request and completes it with MPI_Grequest_complete but never
 * waits on it (nor frees it): the request is still allocated at MPI_Finalize. Issue 28
 * (generalized requests).
 * np: 2
 * slice: mpich
 * expect: request_not_completed ranks 0 line 17
 * expect: request_not_completed ranks 1 line 17
 */
#include <mpi.h>

#include "grequest_callbacks.h"

int main(int argc, char **argv)
{
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Grequest_start(query, release, cancel, NULL, &req); /* <- reported */
    MPI_Grequest_complete(req);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
