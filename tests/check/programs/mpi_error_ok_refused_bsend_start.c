/* Rank 0 starts a persistent buffered send (MPI_Bsend_init) of 100,000 ints with no buffer
 * attached: MPI refuses the MPI_Start (MPI_ERRORS_RETURN: the error comes back) after mpiguard
 * paired it with rank 1's receive. Rank 0 frees the request and sends with MPI_Send, which that
 * receive takes. Nothing is reported: the refused Start leaves nothing posted and gives the
 * receive back (before, a potential_deadlock and the MPI_Send's message reported lost). Issue 28
 * item 6. MPICH only: Open MPI 4.1 refuses the Start too, then never delivers rank 0's next
 * message to rank 1 (the job hangs under plain Open MPI).
 * np: 2
 * flavors: mpich
 * expect: clean
 */
#include <mpi.h>
#include <stdlib.h>

#define N 100000

int main(int argc, char **argv)
{
    int rank, ready = 0, refused = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *data = calloc(N, sizeof *data);
    MPI_Request req = MPI_REQUEST_NULL;
    if (rank == 0) {
        MPI_Bsend_init(data, N, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        MPI_Recv(&ready, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        refused = MPI_Start(&req) != MPI_SUCCESS;
        if (!refused)
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Request_free(&req);
        MPI_Send(data, N, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Irecv(data, N, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        MPI_Send(&ready, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    free(data);
    MPI_Finalize();
    return refused ? 0 : 1;
}
