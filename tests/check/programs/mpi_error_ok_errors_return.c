/* The program sets MPI_ERRORS_RETURN and handles the error of a group of a rank that does not
 * exist itself: MPI returns the error, nothing aborts, nothing is reported. Issue 28 item 6.
 * np: 2
 * slice: mpich
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int members[1] = {5}, failed;
    MPI_Group world, group;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    failed = MPI_Group_incl(world, 1, members, &group) != MPI_SUCCESS;
    MPI_Group_free(&world);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return failed ? 0 : 1;
}
