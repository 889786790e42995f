/* Every rank frees the group of the world and then makes a communicator from the copy of its
 * handle it kept: MPI_Comm_create with a group already freed, reported before the call reaches
 * MPI. Issue 28 item 2.
 * np: 2
 * slice: mpich
 * mpi: completes abort
 * expect: group_freed ranks 0 line 21 made 18
 * expect: group_freed ranks 1 line 21 made 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Group world, copy;
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    copy = world;
    MPI_Group_free(&world);
    MPI_Comm_create(MPI_COMM_WORLD, copy, &comm); /* <- reported */
    if (comm != MPI_COMM_NULL)
        MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
