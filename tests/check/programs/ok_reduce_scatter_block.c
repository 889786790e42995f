/* MPI_Reduce_scatter_block and MPI_Allgather agree on every rank.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, vals[4], mine = 0, all[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 4; i++)
        vals[i] = i;
    MPI_Reduce_scatter_block(vals, &mine, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Finalize();
    return size == 4 && mine == 4 * rank && all[3] == 12 ? 0 : 1;
}
