/* Ranks 0 and 1 each split off a communicator of their own, join them in an intercommunicator,
 * exchange one message over it, and free the split communicators but not the intercommunicator.
 * Issue 28 items 3 and 8.
 * np: 2
 * slice: none
 * expect: communicator_leak ranks 0 line 18
 * expect: communicator_leak ranks 1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Comm own, inter;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &own);
    MPI_Intercomm_create(own, 0, MPI_COMM_WORLD, 1 - rank, 5, &inter); /* <- reported */
    if (rank == 0)
        MPI_Send(&value, 1, MPI_INT, 0, 0, inter);
    else
        MPI_Recv(&value, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE);
    MPI_Comm_free(&own);
    MPI_Finalize();
    return 0;
}
