/* MUST paper Fig. 9 with 4 MiB messages: rank 0's one wildcard Irecv completes only after more
 * communication; two ranks send to it, so the later sender (rank 2) waits for its Isend forever.
 * np: 3
 * checks: -message_race
 * expect: deadlock ranks 2,0,1 knot 0,2 line 27
 */
#include <mpi.h>
#include <unistd.h>

static char buf[1 << 22];

int main(int argc, char **argv)
{
    int rank, sum = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Irecv(buf, sizeof buf, MPI_BYTE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &req);
    } else {
        if (rank == 2)
            usleep(500000); /* rank 1's message is the one the wildcard takes */
        MPI_Isend(buf, sizeof buf, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &req);
    }
    for (int i = 0; i < 3; i++) /* the long communication phase */
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
