/* On a periodic 1-D Cartesian ring, ranks 0 and 2 exchange with their neighbours by
 * MPI_Neighbor_alltoall while rank 1 goes on to MPI_Barrier on the ring: the members' calls
 * disagree, and ranks 0 and 2 wait for rank 1's data. Issue 28 items 5 and 8 (collectives).
 * np: 3
 * expect: collective_mismatch ranks 0,1,2 line 19
 * mpi: hang abort completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, periodic = 1, out[2] = {0, 0}, in[2];
    MPI_Comm ring;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periodic, 0, &ring);
    MPI_Comm_rank(ring, &rank);
    if (rank != 1)
        MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring); /* <- reported */
    MPI_Barrier(ring);
    MPI_Comm_free(&ring);
    MPI_Finalize();
    return 0;
}
