/* A helper exposes a buffer as a window for its caller, which calls it from two sites and frees
 * neither window: one window_leak per rank at the helper's MPI_Win_create, count 2.
 * Issue 28 item 3.
 * Open MPI only: MPICH 4.0.2 over UCX aborts in MPI_Finalize on such a window (an rcache
 * assertion, "destroying inuse region"), so the leak there is a crash, not a note.
 * flavors: openmpi
 * np: 2
 * slice: none
 * expect: window_leak ranks 0 line 18
 * expect: window_leak ranks 1 line 18
 */
#include <mpi.h>

static MPI_Win expose(int *buffer, int count)
{
    MPI_Win win;
    MPI_Aint bytes = count * (MPI_Aint)sizeof *buffer;
    MPI_Win_create(buffer, bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win); /* <- reported */
    return win;
}

int main(int argc, char **argv)
{
    int halo[4] = {0}, interior[16] = {0};
    MPI_Init(&argc, &argv);
    MPI_Win halo_win = expose(halo, 4);
    MPI_Win interior_win = expose(interior, 16);
    MPI_Barrier(MPI_COMM_WORLD);
    (void)halo_win, (void)interior_win;
    MPI_Finalize();
    return 0;
}
