/* Rank 1 builds a persistent receive on a communicator it never created (still MPI_COMM_NULL, as
 * initialised): MPI_Recv_init refuses it. Errors return here, so the job goes on. Issue 28 items
 * 2 and 8 (persistent requests).
 * np: 2
 * slice: none
 * expect: comm_null ranks 1 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Comm halo = MPI_COMM_NULL;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (rank == 1)
        MPI_Recv_init(&value, 1, MPI_INT, 0, 0, halo, &request); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
