/* Rank 0 skips the last broadcast (it returns early from a loop) and finalizes; rank 1 waits in
 * MPI_Bcast for root 0, which ended. Issue 28 item 8.
 * np: 2
 * slice: none
 * expect: stuck_on_terminated ranks 1,0 knot 0 line 16
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
