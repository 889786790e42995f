/* A dynamic window with memory attached and detached, never freed: one window_leak per rank at
 * MPI_Win_create_dynamic. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: window_leak ranks 0 line 15
 * expect: window_leak ranks 1 line 15
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int region[8] = {0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win); /* <- reported */
    MPI_Win_attach(win, region, sizeof region);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_detach(win, region);
    MPI_Finalize();
    return 0;
}
