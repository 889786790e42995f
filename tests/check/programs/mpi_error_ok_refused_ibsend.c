/* Rank 0's MPI_Ibsend of 100,000 floats finds no buffer attached: MPI refuses it
 * (MPI_ERRORS_RETURN: the error comes back) after mpiguard paired it with rank 1's receive of ints,
 * and rank 0 sends the ints with MPI_Send, which that receive takes. Nothing is reported: the
 * refused send gives the receive back, and no type_mismatch is reported of a message never sent
 * (before, a type_mismatch at line 29, a potential_deadlock and the ints reported lost). Rank 1
 * posts its receive before rank 0 sends, so the pair is made before the refusal is read. Issue 28
 * item 6. MPICH only: Open MPI 4.1 sends a short Ibsend at once, and after refusing a long one
 * (MPI_ERR_BUFFER) never delivers rank 0's next message to rank 1 (the job hangs under plain MPI).
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
    int *ints = calloc(N, sizeof *ints);
    float *floats = calloc(N, sizeof *floats);
    MPI_Request req = MPI_REQUEST_NULL;
    if (rank == 0) {
        MPI_Recv(&ready, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        refused = MPI_Ibsend(floats, N, MPI_FLOAT, 1, 0, MPI_COMM_WORLD, &req) != MPI_SUCCESS;
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Send(ints, N, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Irecv(ints, N, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        MPI_Send(&ready, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    free(ints);
    free(floats);
    MPI_Finalize();
    return refused ? 0 : 1;
}
