/* MPI_IN_PLACE where the standard allows it: the root of a Gather and a Scatter, every member of
 * an Allgather and an Allreduce; the root's block then comes from its other buffer. Issue 28
 * item 1.
 * np: 3
 * expect: clean
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, all[6] = {0}, mine[2] = {1, 2};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 2, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Scatter(all, 2, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
    } else {
        MPI_Gather(mine, 2, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
        MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, mine, 2, MPI_INT, 0, MPI_COMM_WORLD);
    }
    all[2 * rank] = rank;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 2, MPI_INT, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, all, 6, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
