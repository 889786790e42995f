/* Correct: requests made, completed and freed in a loop, each waited on through the handle MPI
 * returned. Both MPIs hand a freed request's handle out again for the next request, so the
 * handle of a completed request comes back as a live one: no request_freed. Issue 28 item 2.
 * np: 2
 * slice: mpich
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0, reused = 0;
    MPI_Request req, previous = MPI_REQUEST_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 8; i++) {
        if (rank == 0)
            MPI_Isend(&i, 1, MPI_INT, 1, i, MPI_COMM_WORLD, &req);
        else
            MPI_Irecv(&value, 1, MPI_INT, 0, i, MPI_COMM_WORLD, &req);
        reused += req == previous;
        previous = req;
        if (i % 2)
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        else
            for (int done = 0; !done;)
                MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return value != (rank == 0 ? 0 : 7) || reused == 0;
}
