/* Rank 0 probes MPI_ANY_SOURCE and receives the message it found from that source, twice: the
 * probe may find the message of rank 1 or of rank 2 first (a message race at the probe, issue 28
 * item 6; the receive that follows names its source).
 * np: 3
 * slice: none
 * expect: message_race ranks 0,1,2 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int i = 0; i < 2; i++) {
            MPI_Probe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &status);
            MPI_Recv(&value, 1, MPI_INT, status.MPI_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    } else {
        value = rank;
        MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
