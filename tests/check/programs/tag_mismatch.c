/* Rank 0 sends with tag 1 and rank 1 receives with tag 2: the send is buffered (a potential
 * deadlock), then rank 1's receive and rank 0's barrier wait for each other.
 * np: 2
 * expect: potential_deadlock ranks 0,1
 * expect: deadlock ranks 1,0 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    else
        MPI_Recv(&x, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
