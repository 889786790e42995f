/* An info made per window in a loop; the windows are freed, the infos never: one info_leak per
 * rank at MPI_Info_create, count 3. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: info_leak ranks 0 line 17
 * expect: info_leak ranks 1 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int slots[3][4] = {{0}};
    MPI_Init(&argc, &argv);
    for (int i = 0; i < 3; i++) {
        MPI_Info hints;
        MPI_Win win;
        MPI_Info_create(&hints); /* <- reported */
        MPI_Info_set(hints, "no_locks", "true");
        MPI_Win_create(slots[i], sizeof slots[i], sizeof(int), hints, MPI_COMM_WORLD, &win);
        MPI_Win_free(&win);
    }
    MPI_Finalize();
    return 0;
}
