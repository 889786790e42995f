/* Calls whose records the test decodes and asserts: a wildcard receive whose status the
 * application ignores, a split communicator with a rooted collective, a nonblocking pair, and a
 * receive polled with MPI_Test until its late send arrives (only the Test that completes it may
 * leave records). */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, x = 42;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else if (rank == 1)
        MPI_Send(&x, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, -rank, &half); /* reversed order inside each half */
    MPI_Bcast(&x, 1, MPI_INT, 0, half);                     /* root: the highest world rank */
    MPI_Request req;
    if (rank < 2) {
        if (rank == 0)
            MPI_Isend(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &req);
        else
            MPI_Irecv(&x, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (rank == 2) {
        MPI_Irecv(&x, 1, MPI_INT, 3, 4, MPI_COMM_WORLD, &req);
        int done = 0, polls = 0;
        while (!done) {
            MPI_Test(&req, &done, MPI_STATUS_IGNORE);
            polls++;
        }
        if (polls < 2)
            return 3; /* the test below needs Tests that complete nothing */
    } else {
        usleep(200000);
        MPI_Send(&x, 1, MPI_INT, 2, 4, MPI_COMM_WORLD);
    }
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
