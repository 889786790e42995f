/* Every rank frees the group of the world, then frees it again through the copy of its handle it
 * kept: MPI_Group_free of a group already freed, reported before the call reaches MPI, with the
 * MPI_Comm_group that made the group. Issue 28 item 2.
 * np: 2
 * slice: mpich
 * mpi: completes abort
 * expect: group_freed ranks 0 line 21 made 17
 * expect: group_freed ranks 1 line 21 made 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Group world, copy;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    copy = world;
    MPI_Group_free(&world);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Group_free(&copy); /* <- reported */
    MPI_Finalize();
    return 0;
}
