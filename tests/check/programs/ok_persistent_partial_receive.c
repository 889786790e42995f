/* Correct: a persistent receive of 8 doubles, started three times, takes messages of 2, 5 and 8
 * doubles from rank 0 (a receive longer than its message is legal, MPI 3.1 §3.2.4); rank 1 reads
 * each length from the status. Issue 28 items 1 and 8 (persistent requests, legal partial
 * receives).
 * np: 2
 * slice: none
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, lengths[3] = {2, 5, 8}, got;
    double values[8] = {0};
    MPI_Request request;
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Recv_init(values, 8, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &request);
        for (int step = 0; step < 3; step++) {
            MPI_Start(&request);
            MPI_Wait(&request, &status);
            MPI_Get_count(&status, MPI_DOUBLE, &got);
        }
        MPI_Request_free(&request);
    } else {
        for (int step = 0; step < 3; step++)
            MPI_Send(values, lengths[step], MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
