/* On a non-periodic 1-D Cartesian line, whose ends have MPI_PROC_NULL as their outer neighbour,
 * the ranks exchange with MPI_Ineighbor_alltoallv and MPI_Neighbor_alltoall, completing the
 * request with MPI_Waitall. Issue 28 (neighbourhood collectives).
 * np: 3
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, periodic = 0, counts[2] = {1, 1}, displs[2] = {0, 1}, out[2], in[2] = {-1, -1};
    MPI_Comm line;
    MPI_Request req[1];
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periodic, 0, &line);
    MPI_Comm_rank(line, &rank);
    out[0] = out[1] = rank;
    MPI_Ineighbor_alltoallv(out, counts, displs, MPI_INT, in, counts, displs, MPI_INT, line, req);
    MPI_Waitall(1, req, MPI_STATUSES_IGNORE);
    MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, line);
    MPI_Comm_free(&line);
    MPI_Finalize();
    return rank > 0 && in[0] != rank - 1;
}
