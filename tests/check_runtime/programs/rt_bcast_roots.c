/* Rank 0 broadcasts from root 0, rank 1 from root 1: a collective mismatch. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Bcast(&x, 1, MPI_INT, rank, MPI_COMM_WORLD); /* MISMATCH-LINE */
    MPI_Finalize();
    return 0;
}
