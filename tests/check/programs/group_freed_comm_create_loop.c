/* A loop makes a communicator of the group it read before the loop, and frees that group at the
 * end of the first step: the second step's MPI_Comm_create uses a group already freed (reported
 * on every rank; the first step is correct). Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes abort
 * expect: group_freed ranks 0 line 22 made 18
 * expect: group_freed ranks 1 line 22 made 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int value = 1, sum = 0;
    MPI_Group world;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    const MPI_Group members = world;
    for (int step = 0; step < 2; step++) {
        MPI_Comm comm = MPI_COMM_NULL;
        if (MPI_Comm_create(MPI_COMM_WORLD, members, &comm) != MPI_SUCCESS) /* <- at step 1 */
            break;
        MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, comm);
        MPI_Comm_free(&comm);
        if (step == 0)
            MPI_Group_free(&world);
    }
    MPI_Finalize();
    return 0;
}
