/* Messages sent on MPI_COMM_WORLD never match receives on a duplicate of it: both ranks send on
 * WORLD (buffered) and wait on the duplicate.
 * np: 2
 * expect: potential_deadlock ranks 0,1
 * expect: deadlock ranks 0,1 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Send(&rank, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    MPI_Recv(&x, 1, MPI_INT, 1 - rank, 0, dup, MPI_STATUS_IGNORE); /* <- reported */
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
