/* Rank 0 sets up a persistent send with MPI_DATATYPE_NULL: MPI_Send_init refuses it. Errors
 * return here, so the job goes on. Issue 28 items 2 and 8 (persistent requests).
 * np: 2
 * slice: mpich
 * expect: datatype_null ranks 0 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, values[2] = {0};
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0)
        MPI_Send_init(values, 2, MPI_DATATYPE_NULL, 1, 0, MPI_COMM_WORLD,
                      &request); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
