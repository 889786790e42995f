/* Gather, Scatter, Allgather, Alltoall, Scan and Exscan in the same order everywhere.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, mine, all[4], back[4], pre = 0, excl = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = rank + 1;
    MPI_Gather(&mine, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Scatter(all, 1, MPI_INT, &mine, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Alltoall(all, 1, MPI_INT, back, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Scan(&mine, &pre, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Exscan(&mine, &excl, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return size == 4 && pre == (rank + 1) * (rank + 2) / 2 && back[0] == rank + 1 ? 0 : 1;
}
