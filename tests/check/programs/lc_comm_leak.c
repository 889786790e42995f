/* Every rank duplicates MPI_COMM_WORLD three times in a loop and splits it once, uses them and
 * frees only the split: three communicators of one creation site leak on each rank (one
 * finding per rank, count 3). Issue 28 item 3.
 * np: 2
 * expect: communicator_leak ranks 0 line 17
 * expect: communicator_leak ranks 1 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sum = 0;
    MPI_Comm dups[3], half;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 3; i++)
        MPI_Comm_dup(MPI_COMM_WORLD, &dups[i]); /* <- reported */
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &half);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dups[2]);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
