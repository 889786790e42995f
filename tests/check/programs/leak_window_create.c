/* A window exposed for one fence epoch and never freed: one window_leak per rank at
 * MPI_Win_create (not a communicator_leak, though the detector models the window as one).
 * Issue 28 item 3.
 * Open MPI only: MPICH 4.0.2 over UCX aborts in MPI_Finalize on such a window (an rcache
 * assertion, "destroying inuse region"), so the leak there is a crash, not a note.
 * flavors: openmpi
 * np: 2
 * slice: none
 * expect: window_leak ranks 0 line 21
 * expect: window_leak ranks 1 line 21
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, slot = -1, value;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = rank;
    MPI_Win_create(&slot, sizeof slot, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win); /* <- reported */
    MPI_Win_fence(0, win);
    MPI_Put(&value, 1, MPI_INT, 1 - rank, 0, 1, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Finalize();
    return slot == 1 - rank ? 0 : 1;
}
