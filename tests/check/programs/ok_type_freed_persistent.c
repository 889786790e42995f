/* Correct: each rank frees its resized type right after setting up a persistent exchange with it
 * (the requests keep the type, MPI 3.1 §4.1.9) and then runs the exchange three times. Issue 28
 * items 1 and 8 (bad input: a type freed while a request that uses it exists).
 * np: 2
 * slice: none
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, out[8] = {0}, in[8];
    MPI_Datatype spaced;
    MPI_Request requests[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &spaced);
    MPI_Type_commit(&spaced);
    MPI_Send_init(out, 4, spaced, 1 - rank, 0, MPI_COMM_WORLD, &requests[0]);
    MPI_Recv_init(in, 4, spaced, 1 - rank, 0, MPI_COMM_WORLD, &requests[1]);
    MPI_Type_free(&spaced);
    for (int step = 0; step < 3; step++) {
        MPI_Startall(2, requests);
        MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    }
    MPI_Request_free(&requests[0]);
    MPI_Request_free(&requests[1]);
    MPI_Finalize();
    return 0;
}
