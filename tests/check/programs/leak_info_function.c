/* A helper returns a fresh info of hints for each window its caller makes, called from two
 * sites; the windows are freed, the infos never: one info_leak per rank at the helper's
 * MPI_Info_create, count 2. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: info_leak ranks 0 line 14
 * expect: info_leak ranks 1 line 14
 */
#include <mpi.h>

static MPI_Info window_hints(const char *ordering)
{
    MPI_Info hints;
    MPI_Info_create(&hints); /* <- reported */
    MPI_Info_set(hints, "accumulate_ordering", ordering);
    return hints;
}

int main(int argc, char **argv)
{
    int a[4] = {0}, b[4] = {0};
    MPI_Win first, second;
    MPI_Init(&argc, &argv);
    MPI_Win_create(a, sizeof a, sizeof(int), window_hints("none"), MPI_COMM_WORLD, &first);
    MPI_Win_create(b, sizeof b, sizeof(int), window_hints("rar,raw"), MPI_COMM_WORLD, &second);
    MPI_Win_free(&first);
    MPI_Win_free(&second);
    MPI_Finalize();
    return 0;
}
