/* The statuses of completions that fail (check_runtime.sh failed_status), errors returned: rank
 * 1's wildcard Irecv of one int gets rank 0's four (MPI_ERR_TRUNCATE: the message matched, its
 * source and tag are set), then a generalized request whose query function fills the status with
 * values of its own and fails (MPI_ERR_OTHER: the standard defines no field of that status), each
 * completed by MPI_Waitany. */
#include <mpi.h>
#include <stddef.h>

static int query_fails(void *state, MPI_Status *status)
{
    (void)state;
    status->MPI_SOURCE = 12345;
    status->MPI_TAG = 777;
    return MPI_ERR_OTHER;
}

static int free_nothing(void *state)
{
    (void)state;
    return MPI_SUCCESS;
}

static int cancel_nothing(void *state, int complete)
{
    (void)state, (void)complete;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank, index, data[4] = {1, 2, 3, 4};
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        MPI_Irecv(data, 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &req);
        int rc = MPI_Waitany(1, &req, &index, MPI_STATUS_IGNORE);
        MPI_Grequest_start(query_fails, free_nothing, cancel_nothing, NULL, &req);
        MPI_Grequest_complete(req);
        int rc2 = MPI_Waitany(1, &req, &index, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS || rc2 == MPI_SUCCESS || req != MPI_REQUEST_NULL)
            return 1; /* not the failures this test is about */
    } else {
        MPI_Send(data, 4, MPI_INT, 1, 5, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
