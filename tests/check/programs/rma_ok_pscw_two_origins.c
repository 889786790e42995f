/* Correct PSCW with a post group of two: rank 0 exposes its window to ranks 1 and 2, which put
 * into their own cells; a message sent after the epoch is received after the wait.
 * Issue 28 item 5.
 * np: 3
 * slice: none
 * expect: clean
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, cells[4] = {0}, value, token = 1;
    MPI_Win win;
    MPI_Group world, origins, target;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int both[2] = {1, 2}, zero = 0;
    MPI_Group_incl(world, 2, both, &origins);
    MPI_Group_incl(world, 1, &zero, &target);
    if (rank == 0) {
        MPI_Win_post(origins, 0, win);
        MPI_Win_wait(win);
        for (int from = 1; from <= 2; from++)
            MPI_Recv(&token, 1, MPI_INT, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (cells[1] != 1 || cells[2] != 2)
            abort();
    } else {
        value = rank;
        MPI_Win_start(target, 0, win);
        MPI_Put(&value, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
        MPI_Win_complete(win);
        MPI_Send(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Group_free(&origins);
    MPI_Group_free(&target);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
