/* Each rank splits the world into communicators of one rank and then sends to its world
 * neighbour's rank number on the split communicator, where only rank 0 exists: rank 0's send to
 * 1 is outside its communicator of size 1. Errors return here, so the job goes on. Issue 28
 * items 2 and 8.
 * np: 2
 * slice: none
 * expect: rank_out_of_range ranks 0 line 21
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 3;
    MPI_Comm own;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &own);
    MPI_Comm_set_errhandler(own, MPI_ERRORS_RETURN);
    if (rank == 0)
        MPI_Ssend(&value, 1, MPI_INT, 1, 0, own); /* <- reported */
    MPI_Comm_free(&own);
    MPI_Finalize();
    return 0;
}
