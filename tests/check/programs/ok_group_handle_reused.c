/* Correct: groups made and freed in a loop, each used only while it lives to make a communicator.
 * MPI hands a freed group's handle out again for the next group, so the handle of a freed group
 * comes back as a live one: no group_freed. Issue 28 item 2.
 * np: 2
 * slice: mpich
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int value = 1, sum = 0;
    MPI_Init(&argc, &argv);
    for (int i = 0; i < 4; i++) {
        MPI_Group world;
        MPI_Comm comm;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Comm_create(MPI_COMM_WORLD, world, &comm);
        MPI_Group_free(&world);
        MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, comm);
        MPI_Comm_free(&comm);
    }
    MPI_Finalize();
    return sum != 2;
}
