/* Rank 1 sets up a persistent receive with a count of -1 (an "unknown yet" marker passed on by
 * mistake): MPI_Recv_init refuses it. Errors return here, so the job goes on. Issue 28 items 2
 * and 8 (persistent requests).
 * np: 2
 * slice: mpich
 * expect: negative_count ranks 1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, values[4] = {0}, expected = -1;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1)
        MPI_Recv_init(values, expected, MPI_INT, 0, 0, MPI_COMM_WORLD, &request); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
