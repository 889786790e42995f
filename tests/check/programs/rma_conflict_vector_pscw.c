/* Rank 0 puts elements 0, 2 and 4 of rank 1's window through a vector type, then element 4
 * alone, in one PSCW access epoch: only the derived type's layout shows that the second Put
 * overlaps the first. Issue 28 item 5.
 * np: 2
 * slice: none
 * expect: rma_conflicting_access ranks 0 line 29
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, cells[8] = {0}, values[3] = {1, 2, 3}, last = 9, other;
    MPI_Win win;
    MPI_Group world, peer;
    MPI_Datatype every_other;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    other = 1 - rank;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &other, &peer);
    MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Win_create(cells, sizeof cells, sizeof cells[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 1) {
        MPI_Win_post(peer, 0, win);
        MPI_Win_wait(win);
    } else {
        MPI_Win_start(peer, 0, win);
        MPI_Put(values, 3, MPI_INT, 1, 0, 1, every_other, win); /* <- reported */
        MPI_Put(&last, 1, MPI_INT, 1, 4, 1, MPI_INT, win);
        MPI_Win_complete(win);
    }
    MPI_Win_free(&win);
    MPI_Type_free(&every_other);
    MPI_Group_free(&peer);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
