/* Rank 0's MPI_Bsend finds no buffer attached: MPI refuses it (MPI_ERRORS_RETURN: the error comes
 * back) after mpiguard paired it with rank 1's receive, and rank 0 sends the message again with
 * MPI_Send, which that receive takes. Nothing is reported: the refused send gives the receive
 * back (before, the second message was reported lost). Issue 28 item 6. MPICH only: Open MPI
 * 4.1 sends a short message at once, and a long one's receive takes the refused send's
 * half-started message (MPI_ERR_BUFFER returned, then the job hangs under plain MPI).
 * np: 2
 * flavors: mpich
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, data = 7, refused = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        refused = MPI_Bsend(&data, 1, MPI_INT, 1, 0, MPI_COMM_WORLD) != MPI_SUCCESS;
        MPI_Send(&data, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return refused ? 0 : 1;
}
