/* A master restarts a persistent wildcard receive once per worker message, but expects one
 * message more than the two workers send; the workers wait in the final Barrier.
 * np: 3
 * checks: -message_race
 * expect: deadlock ranks 0,1,2 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Recv_init(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &req);
        for (int i = 0; i < 3; i++) {
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE); /* <- reported */
        }
        MPI_Request_free(&req);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
