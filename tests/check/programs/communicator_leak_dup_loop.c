/* Every rank duplicates the world once per phase of a loop (three phases) and frees the duplicate
 * only after the last phase: two duplicates leak on each rank (one finding per rank, count 2).
 * Issue 28 items 3 and 8.
 * np: 2
 * slice: none
 * expect: communicator_leak ranks 0 line 18
 * expect: communicator_leak ranks 1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, total = 0;
    MPI_Comm phase_comm = MPI_COMM_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int phase = 0; phase < 3; phase++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &phase_comm); /* <- reported */
        MPI_Allreduce(&rank, &total, 1, MPI_INT, MPI_SUM, phase_comm);
    }
    MPI_Comm_free(&phase_comm);
    MPI_Finalize();
    return 0;
}
