/* Correct: rank 0 receives one message from each worker with wildcards (MPI_ANY_SOURCE,
 * MPI_ANY_TAG) into room for 6 ints; the workers send 2 and 6 ints, each as MPI matched it within
 * the receive's length. Issue 28 items 1 and 8 (wildcards as matched, legal partial receives).
 * np: 3
 * checks: -message_race
 * slice: none
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, values[6] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int i = 0; i < 2; i++)
            MPI_Recv(values, 6, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    } else {
        MPI_Send(values, rank == 1 ? 2 : 6, MPI_INT, 0, rank, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
