/* Rank 0 collects one reply per worker with a wildcard receive (MPI_ANY_SOURCE, MPI_ANY_TAG) of 2
 * ints; worker 2 replies with 4: the message MPI matched is longer than the receive. Rank 1's
 * reply, received first, fits. Errors return here, so the job goes on. Issue 28 items 1 and 8
 * (wildcards as matched).
 * np: 3
 * slice: none
 * expect: truncation ranks 2,0 line 30
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, reply[4] = {0}, slot[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        for (int worker = 1; worker <= 2; worker++) {
            MPI_Recv(slot, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Barrier(MPI_COMM_WORLD);
        }
    } else if (rank == 1) {
        MPI_Send(reply, 2, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(reply, 4, MPI_INT, 0, 2, MPI_COMM_WORLD); /* <- reported */
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
