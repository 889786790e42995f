/* The program installs its own error handler, which counts the error and returns: MPI calls it
 * (not mpiguard's), the job goes on, nothing is reported. Issue 28 item 6.
 * np: 2
 * slice: none
 * expect: clean
 */
#include <mpi.h>

static int errors;

static void count_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
    errors++;
}

int main(int argc, char **argv)
{
    int members[1] = {5};
    MPI_Group world, group;
    MPI_Errhandler handler;
    MPI_Init(&argc, &argv);
    MPI_Comm_create_errhandler(count_error, &handler);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, members, &group);
    MPI_Group_free(&world);
    MPI_Errhandler_free(&handler);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return errors == 1 ? 0 : 1;
}
