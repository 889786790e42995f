/* Each rank starts a generalized request and completes it with MPI_Grequest_complete but never
 * waits on it (nor frees it): the request is still allocated at MPI_Finalize. Issue 28
 * (generalized requests).
 * np: 2
 * slice: mpich
 * expect: request_not_completed ranks 0 line 36
 * expect: request_not_completed ranks 1 line 36
 */
#include <mpi.h>
#include <stddef.h>

static int query(void *state, MPI_Status *status)
{
    (void)state;
    MPI_Status_set_elements(status, MPI_BYTE, 0);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}
static int release(void *state)
{
    (void)state;
    return MPI_SUCCESS;
}
static int cancel(void *state, int complete)
{
    (void)state, (void)complete;
    return MPI_SUCCESS;
}

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
