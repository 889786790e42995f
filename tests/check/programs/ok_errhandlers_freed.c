/* Error handlers of each kind made, set where they are needed and freed at once (a handler stays
 * in use by its communicator, window or file until these are freed): a communicator's, a window's,
 * and a file's set as the default of MPI_FILE_NULL. Issue 28 item 3.
 * np: 2
 * slice: mpich
 * expect: clean
 */
#include <mpi.h>

static void comm_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm, (void)code;
}
static void win_error(MPI_Win *win, int *code, ...)
{
    (void)win, (void)code;
}
static void file_error(MPI_File *file, int *code, ...)
{
    (void)file, (void)code;
}

int main(int argc, char **argv)
{
    int cell = 0;
    MPI_Comm work;
    MPI_Win win;
    MPI_Errhandler handler;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &work);
    MPI_Comm_create_errhandler(comm_error, &handler);
    MPI_Comm_set_errhandler(work, handler);
    MPI_Errhandler_free(&handler);
    MPI_Win_create(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, work, &win);
    MPI_Win_create_errhandler(win_error, &handler);
    MPI_Win_set_errhandler(win, handler);
    MPI_Errhandler_free(&handler);
    MPI_File_create_errhandler(file_error, &handler);
    MPI_File_set_errhandler(MPI_FILE_NULL, handler);
    MPI_Errhandler_free(&handler);
    MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Comm_free(&work);
    MPI_Finalize();
    return 0;
}
