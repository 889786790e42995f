/* Rank 3 of 4 sends to rank 7 while the others wait in a Barrier: the argument checks report it
 * before the call reaches MPI, which then raises MPI_ERR_RANK and ends the job inside the call.
 * The ranks left waiting on rank 3 and its missing Finalize follow from that bug and are folded
 * into its one finding (evidence mpi_ended_inside); under --detector-leaves 2 the Barrier's ranks
 * span both leaves (check_leaves_rank_out_of_range_barrier_4_*). Issue 28. The first Barrier
 * lets every rank finish MPI_Init before the abort: a rank killed inside MPI_Init made no call that
 * mpiguard saw, and is rightly named not observed (CI, under load).
 * np: 4
 * slice: mpich
 * mpi: abort
 * expect: rank_out_of_range ranks 3 line 22
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 3)
        MPI_Send(&value, 1, MPI_INT, 7, 0, MPI_COMM_WORLD); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
