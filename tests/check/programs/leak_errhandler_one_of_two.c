/* Two handlers for a duplicated communicator, the second replacing the first; the program frees
 * the first and forgets the second: one errhandler_leak per rank at the second
 * MPI_Comm_create_errhandler only. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: errhandler_leak ranks 0 line 31
 * expect: errhandler_leak ranks 1 line 31
 */
#include <mpi.h>

static void note_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm, (void)code;
}

static void count_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm, (void)code;
}

int main(int argc, char **argv)
{
    MPI_Comm work;
    MPI_Errhandler first, second;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &work);
    MPI_Comm_create_errhandler(note_error, &first);
    MPI_Comm_set_errhandler(work, first);
    MPI_Errhandler_free(&first);
    MPI_Barrier(work);
    MPI_Comm_create_errhandler(count_error, &second); /* <- reported */
    MPI_Comm_set_errhandler(work, second);
    MPI_Barrier(work);
    MPI_Comm_free(&work);
    MPI_Finalize();
    return 0;
}
