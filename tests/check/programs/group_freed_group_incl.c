/* Every rank frees the group of the world, then makes the group of its own rank from the copy of
 * the handle it kept: MPI_Group_incl with a group already freed, reported before the call reaches
 * MPI. Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes abort
 * expect: group_freed ranks 0 line 24 made 20
 * expect: group_freed ranks 1 line 24 made 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Group world, copy, mine = MPI_GROUP_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    copy = world;
    MPI_Group_free(&world);
    MPI_Barrier(MPI_COMM_WORLD);
    if (MPI_Group_incl(copy, 1, &rank, &mine) == MPI_SUCCESS && /* <- reported */
        mine != MPI_GROUP_NULL && mine != MPI_GROUP_EMPTY)
        MPI_Group_free(&mine);
    MPI_Finalize();
    return 0;
}
