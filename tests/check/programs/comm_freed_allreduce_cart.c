/* A 1-D periodic Cartesian communicator is made, its handle copied into the solver's state, and
 * freed; rank 0 then reduces a residual over the stale copy: a communicator used after
 * MPI_Comm_free (a collective on it). Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes
 * expect: comm_freed ranks 0 line 25
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, dims[1] = {2}, periods[1] = {1};
    double residual = 1.0, total = 0.0;
    MPI_Comm ring, solver;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    solver = ring;
    MPI_Allreduce(&residual, &total, 1, MPI_DOUBLE, MPI_SUM, solver);
    MPI_Comm_free(&ring);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Allreduce(&residual, &total, 1, MPI_DOUBLE, MPI_SUM, solver); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
