/* Five rounds of MPI_Comm_dup, an Allreduce on the duplicate and MPI_Comm_free.
 * np: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int it = 0; it < 5; it++) {
        MPI_Comm dup;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Allreduce(&it, &sum, 1, MPI_INT, MPI_SUM, dup);
        MPI_Comm_free(&dup);
    }
    MPI_Finalize();
    return sum == 8 ? 0 : 1;
}
