/* A window whose memory MPI allocates (MPI_Win_allocate), used under a lock and never freed, so
 * its memory is never given back either: one window_leak per rank at MPI_Win_allocate.
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
    int rank, *base, value;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = rank + 1;
    MPI_Win_allocate(sizeof *base, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win); /* <- reported */
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1 - rank, 0, win);
    MPI_Put(&value, 1, MPI_INT, 1 - rank, 0, 1, MPI_INT, win);
    MPI_Win_unlock(1 - rank, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
