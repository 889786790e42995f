/* Both ranks send first (small messages MPI buffers): a potential deadlock the job survives. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0, y = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD); /* POTENTIAL-LINE */
    MPI_Recv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
