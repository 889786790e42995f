/* A Sendrecv ring that sends to the right and also receives from the right: nobody sends left.
 * np: 3
 * expect: deadlock ranks 0,1,2 line 15
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, in = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size;
    MPI_Status st;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 0, &in, 1, MPI_INT, right, 0, MPI_COMM_WORLD,
                 &st); /* <- reported */
    MPI_Finalize();
    return 0;
}
