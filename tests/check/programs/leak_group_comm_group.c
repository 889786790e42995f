/* Each rank asks for MPI_COMM_WORLD's group to translate a rank and never frees it: the group
 * MPI_Comm_group returns is a new one the program must free, even for a predefined communicator
 * (MPI 3.1 §6.3.2): one group_leak per rank. Issue 28 item 3.
 * np: 2
 * slice: mpich
 * expect: group_leak ranks 0 line 17
 * expect: group_leak ranks 1 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, first = 0, translated;
    MPI_Group world, self;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world); /* <- reported */
    MPI_Comm_group(MPI_COMM_SELF, &self);
    MPI_Group_translate_ranks(self, 1, &first, world, &translated);
    MPI_Group_free(&self);
    MPI_Finalize();
    return translated == rank ? 0 : 1;
}
