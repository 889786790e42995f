/* A loop makes a one-member group of each rank to ask its position, and frees none: one
 * group_leak per rank at MPI_Group_incl, count 3 (the world group is freed). Issue 28 item 3.
 * np: 3
 * slice: none
 * expect: group_leak ranks 0 line 21
 * expect: group_leak ranks 1 line 21
 * expect: group_leak ranks 2 line 21
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int size, zero = 0, total = 0;
    MPI_Group world;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    for (int r = 0; r < size; r++) {
        MPI_Group one;
        int back;
        MPI_Group_incl(world, 1, &r, &one); /* <- reported */
        MPI_Group_translate_ranks(one, 1, &zero, world, &back);
        total += back;
    }
    MPI_Group_free(&world);
    MPI_Finalize();
    return total == size * (size - 1) / 2 ? 0 : 1;
}
