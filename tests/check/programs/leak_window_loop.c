/* One window per step of a loop; only the last is freed after it: one window_leak per rank at
 * MPI_Win_create, count 2. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: window_leak ranks 0 line 17
 * expect: window_leak ranks 1 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int slots[3] = {0};
    MPI_Win win = MPI_WIN_NULL;
    MPI_Init(&argc, &argv);
    for (int step = 0; step < 3; step++) {
        int *slot = &slots[step];
        MPI_Win_create(slot, sizeof(int), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win); /* <- reported */
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
