/* Every rank makes a communicator of the even ranks with MPI_Comm_create (rank 1 gets
 * MPI_COMM_NULL, nothing to free); rank 0 uses it and never frees it. Issue 28 items 3 and 8.
 * np: 2
 * slice: none
 * expect: communicator_leak ranks 0 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, even = 0, value = 1;
    MPI_Group world, evens;
    MPI_Comm team;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &even, &evens);
    MPI_Comm_create(MPI_COMM_WORLD, evens, &team); /* <- reported */
    if (team != MPI_COMM_NULL)
        MPI_Bcast(&value, 1, MPI_INT, 0, team);
    MPI_Group_free(&evens);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
