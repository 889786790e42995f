/* Bad input of issue 28: rank 0 frees (a copy of) MPI_COMM_WORLD while rank 1 goes on to
 * MPI_Finalize. MPI refuses (MPI_ERR_COMM) and aborts: one mpi_error in MPI_Comm_free at its line,
 * and no collective mismatch with rank 1's MPI_Finalize (the detector does not model a predefined
 * communicator's free as a collective: MPI never performs it).
 * np: 2
 * slice: mpich
 * mpi: abort
 * expect: mpi_error ranks 0 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm world = MPI_COMM_WORLD;
    if (rank == 0)
        MPI_Comm_free(&world); /* <- reported */
    MPI_Finalize();
    return 0;
}
