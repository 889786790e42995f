/* Rank 1 receives each step with a persistent receive of 3 doubles, set up once; at the second
 * step rank 0 sends 6 (the problem grew): the started receive is shorter than the message.
 * Errors return here, so the job goes on. Issue 28 items 1 and 8 (persistent requests). Open
 * MPI frees the request in the Wait that returns the truncation; MPICH leaves it to the program.
 * np: 2
 * slice: none
 * expect: truncation ranks 0,1 line 29
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    double values[6] = {0};
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        MPI_Recv_init(values, 3, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &request);
        for (int step = 0; step < 2; step++) {
            MPI_Start(&request);
            MPI_Wait(&request, MPI_STATUS_IGNORE);
        }
        MPI_Request_free(&request);
    } else {
        MPI_Send(values, 3, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
        MPI_Send(values, 6, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD); /* <- reported */
    }
    MPI_Finalize();
    return 0;
}
