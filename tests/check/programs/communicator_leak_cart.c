/* Every rank makes a periodic one-dimensional Cartesian grid, shifts a value along it and never
 * frees the grid communicator. Issue 28 items 3 and 8.
 * np: 2
 * slice: none
 * expect: communicator_leak ranks 0 line 17
 * expect: communicator_leak ranks 1 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int size, dims[1], periods[1] = {1}, left, right, mine = 1, theirs = 0;
    MPI_Comm ring;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    dims[0] = size;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring); /* <- reported */
    MPI_Cart_shift(ring, 0, 1, &left, &right);
    MPI_Sendrecv(&mine, 1, MPI_INT, right, 0, &theirs, 1, MPI_INT, left, 0, ring,
                 MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
