/* A helper returns a communicator's group for its caller, called from two sites; the caller frees
 * neither: one group_leak per rank at the helper's MPI_Comm_group, count 2. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: group_leak ranks 0 line 13
 * expect: group_leak ranks 1 line 13
 */
#include <mpi.h>

static MPI_Group group_of(MPI_Comm comm)
{
    MPI_Group group;
    MPI_Comm_group(comm, &group); /* <- reported */
    return group;
}

int main(int argc, char **argv)
{
    int result;
    MPI_Init(&argc, &argv);
    MPI_Group world = group_of(MPI_COMM_WORLD);
    MPI_Group self = group_of(MPI_COMM_SELF);
    MPI_Group_compare(world, self, &result);
    MPI_Finalize();
    return result == MPI_UNEQUAL ? 0 : 1;
}
