/* An error handler made for a duplicated communicator and set on it, then never freed (the
 * program frees the communicator only): one errhandler_leak per rank at MPI_Comm_create_errhandler.
 * Issue 28 item 3.
 * np: 2
 * slice: mpich
 * expect: errhandler_leak ranks 0 line 22
 * expect: errhandler_leak ranks 1 line 22
 */
#include <mpi.h>

static void note_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm, (void)code;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm work;
    MPI_Errhandler handler;
    MPI_Init(&argc, &argv);
    MPI_Comm_create_errhandler(note_error, &handler); /* <- reported */
    MPI_Comm_dup(MPI_COMM_WORLD, &work);
    MPI_Comm_set_errhandler(work, handler);
    MPI_Comm_rank(work, &rank);
    MPI_Barrier(work);
    MPI_Comm_free(&work);
    MPI_Finalize();
    return 0;
}
