/* Rank 0 alone builds the group of the other ranks to count them, in its branch, and never frees
 * it: one group_leak, rank 0's, at MPI_Group_excl. Issue 28 item 3.
 * np: 3
 * slice: none
 * expect: group_leak ranks 0 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, workers = 0;
    MPI_Group world;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    if (rank == 0) {
        MPI_Group others;
        MPI_Group_excl(world, 1, &rank, &others); /* <- reported */
        MPI_Group_size(others, &workers);
    }
    MPI_Bcast(&workers, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Group_free(&world);
    MPI_Finalize();
    return workers == 2 ? 0 : 1;
}
