/* A Bcast where rank 2 passes MPI_FLOAT and the others MPI_INT (the same size: MPI moves the
 * bytes and says nothing). Issue 28 item 1.
 * np: 3
 * expect: collective_mismatch ranks 0,1,2 line 17
 * mpi: completes
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, value[2] = {7, 8};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0)
        usleep(200000); /* rank 0's call is the slot's first */
    MPI_Bcast(value, 2, rank == 2 ? MPI_FLOAT : MPI_INT, 0, MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
