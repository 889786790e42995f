/* MPI_Comm_create from the group of even ranks; only its members use it, the others get
 * MPI_COMM_NULL.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sum = 0, evens[2] = {0, 2};
    MPI_Group world, even;
    MPI_Comm comm;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 2, evens, &even);
    MPI_Comm_create(MPI_COMM_WORLD, even, &comm);
    if (comm != MPI_COMM_NULL) {
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm);
        MPI_Comm_free(&comm);
    }
    MPI_Group_free(&even);
    MPI_Group_free(&world);
    MPI_Finalize();
    return rank % 2 || sum == 2 ? 0 : 1;
}
