/* Ranks 1 and 2 each send rank 0 one message; rank 0 receives both with MPI_ANY_SOURCE. Either
 * message can be the first one received: which one depends on timing (a message race, issue 28
 * item 6). Reported whichever MPI took in this run.
 * np: 3
 * slice: mpich
 * expect: message_race ranks 0,1,2 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int i = 0; i < 2; i++)
            MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        value = rank;
        MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
