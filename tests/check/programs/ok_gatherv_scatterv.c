/* MPI_Gatherv of rank+1 ints per rank to root 3, then MPI_Scatterv of them back.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, mine[4], all[10], counts[4], displs[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0, d = 0; i < size; d += ++i)
        counts[i] = i + 1, displs[i] = d;
    for (int i = 0; i <= rank; i++)
        mine[i] = rank;
    MPI_Gatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, 3, MPI_COMM_WORLD);
    for (int i = 0; i <= rank; i++)
        mine[i] = -1;
    MPI_Scatterv(all, counts, displs, MPI_INT, mine, rank + 1, MPI_INT, 3, MPI_COMM_WORLD);
    MPI_Finalize();
    return size == 4 && mine[rank] == rank ? 0 : 1;
}
