/* Groups built from groups: the even and the odd ranks, then their union; the program frees the
 * parts and the world group but not the union: one group_leak per rank at MPI_Group_union.
 * Issue 28 item 3.
 * np: 4
 * slice: none
 * expect: group_leak ranks 0 line 23
 * expect: group_leak ranks 1 line 23
 * expect: group_leak ranks 2 line 23
 * expect: group_leak ranks 3 line 23
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int size, ranges[1][3] = {{0, 0, 2}}, members;
    MPI_Group world, even, odd, all;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    ranges[0][1] = size - 1;
    MPI_Group_range_incl(world, 1, ranges, &even);
    MPI_Group_difference(world, even, &odd);
    MPI_Group_union(even, odd, &all); /* <- reported */
    MPI_Group_size(all, &members);
    MPI_Group_free(&even);
    MPI_Group_free(&odd);
    MPI_Group_free(&world);
    MPI_Finalize();
    return members == size ? 0 : 1;
}
