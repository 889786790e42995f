/* Rank 0 returns early from a loop of broadcasts and finalizes; rank 1 waits for root 0. Issue 28.
 * mpi: hang
 * np: 2
 * slice: none
 * expect: stuck_on_terminated ranks 1,0 knot 0 line 16,17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int rounds = rank == 0 ? 1 : 2;
    for (int round = 0; round < rounds; round++)
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
