/* On a periodic 1-D Cartesian ring, the ranks send each neighbour its own element with
 * MPI_Neighbor_alltoallw (a datatype per neighbour), then gather their neighbours' numbers with
 * MPI_Ineighbor_allgatherv and a Wait. Issue 28 (neighbourhood collectives).
 * np: 3
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, periodic = 1, counts[2] = {1, 1}, idispls[2] = {0, 1}, out[2], in[2], got[2];
    MPI_Aint displs[2] = {0, sizeof(int)};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    MPI_Comm ring;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periodic, 0, &ring);
    MPI_Comm_rank(ring, &rank);
    out[0] = out[1] = rank;
    MPI_Neighbor_alltoallw(out, counts, displs, types, in, counts, displs, types, ring);
    MPI_Ineighbor_allgatherv(&rank, 1, MPI_INT, got, counts, idispls, MPI_INT, ring, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Comm_free(&ring);
    MPI_Finalize();
    return in[0] != (rank + size - 1) % size || got[1] != (rank + 1) % size;
}
