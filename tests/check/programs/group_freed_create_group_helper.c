/* A helper makes the group of every rank and frees it before it returns the handle, so the
 * caller's MPI_Comm_create_group gets a group already freed, reported on every rank before the
 * call reaches MPI. Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes abort
 * expect: group_freed ranks 0 line 30 made 17
 * expect: group_freed ranks 1 line 30 made 17
 */
#include <mpi.h>

static MPI_Group every_rank(void)
{
    MPI_Group world, all;
    const int ranks[2] = {0, 1};
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 2, ranks, &all);
    MPI_Group_free(&world);
    MPI_Group handle = all;
    MPI_Group_free(&all);
    return handle;
}

int main(int argc, char **argv)
{
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Group group = every_rank();
    MPI_Comm_create_group(MPI_COMM_WORLD, group, 7, &comm); /* <- reported */
    if (comm != MPI_COMM_NULL)
        MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
