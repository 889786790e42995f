/* A periodic 1-D Cartesian communicator and MPI_Neighbor_allgather of each rank's number.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, nb[2] = {-1, -1}, periodic = 1;
    MPI_Comm ring;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periodic, 0, &ring);
    MPI_Comm_rank(ring, &rank);
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, nb, 1, MPI_INT, ring);
    MPI_Comm_free(&ring);
    MPI_Finalize();
    return nb[0] == (rank + size - 1) % size && nb[1] == (rank + 1) % size ? 0 : 1;
}
