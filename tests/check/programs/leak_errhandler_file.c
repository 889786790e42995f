/* A file error handler made and set as the default of MPI_FILE_NULL (for files opened later),
 * never freed: one errhandler_leak per rank at MPI_File_create_errhandler. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: errhandler_leak ranks 0 line 19
 * expect: errhandler_leak ranks 1 line 19
 */
#include <mpi.h>

static void note_error(MPI_File *file, int *code, ...)
{
    (void)file, (void)code;
}

int main(int argc, char **argv)
{
    MPI_Errhandler handler;
    MPI_Init(&argc, &argv);
    MPI_File_create_errhandler(note_error, &handler); /* <- reported */
    MPI_File_set_errhandler(MPI_FILE_NULL, handler);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
