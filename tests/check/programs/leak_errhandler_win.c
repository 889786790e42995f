/* A window's error handler made in a loop, three times per rank, each set on a new window and
 * never freed: one errhandler_leak per rank at MPI_Win_create_errhandler, count 3. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: errhandler_leak ranks 0 line 23
 * expect: errhandler_leak ranks 1 line 23
 */
#include <mpi.h>

static void note_error(MPI_Win *win, int *code, ...)
{
    (void)win, (void)code;
}

int main(int argc, char **argv)
{
    int cell = 0;
    MPI_Init(&argc, &argv);
    for (int round = 0; round < 3; round++) {
        MPI_Win win;
        MPI_Errhandler handler;
        MPI_Win_create(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        MPI_Win_create_errhandler(note_error, &handler); /* <- reported */
        MPI_Win_set_errhandler(win, handler);
        MPI_Win_fence(0, win);
        MPI_Win_fence(0, win);
        MPI_Win_free(&win);
    }
    MPI_Finalize();
    return 0;
}
