/* One collective through both bindings: rank 0 calls MPI_Bcast_c where the others call MPI_Bcast
 * (the same collective, MPI-4 §6.3), then rank 2 calls MPI_Ibcast_c where the others call
 * MPI_Ibcast, and rank 1 MPI_Allreduce_c where the others call MPI_Allreduce. No mismatch.
 * MPICH only: Open MPI 4.1 has no MPI-4 large-count `_c` functions.
 * flavors: mpich
 * np: 3
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        value = 42;
    if (rank == 0)
        MPI_Bcast_c(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);

    MPI_Request req;
    if (rank == 2)
        MPI_Ibcast_c(&value, 1, MPI_INT, 1, MPI_COMM_WORLD, &req);
    else
        MPI_Ibcast(&value, 1, MPI_INT, 1, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);

    if (rank == 1)
        MPI_Allreduce_c(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else
        MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return value == 42 && sum == 3 * 42 ? 0 : 1;
}
