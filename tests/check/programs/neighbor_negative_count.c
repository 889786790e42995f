/* On a periodic 1-D Cartesian ring, the ranks gather their neighbours' numbers with
 * MPI_Neighbor_allgatherv, giving the second neighbour a receive count of -1. Errors return on
 * the ring, so the job goes on. Issue 28 item 2.
 * np: 2
 * expect: negative_count ranks 0 line 19
 * expect: negative_count ranks 1 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, periodic = 1, counts[2] = {1, -1}, displs[2] = {0, 1}, got[2];
    MPI_Comm ring;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periodic, 0, &ring);
    MPI_Comm_rank(ring, &rank);
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    MPI_Neighbor_allgatherv(&rank, 1, MPI_INT, got, counts, displs, MPI_INT, /* <- reported */
                            ring);
    MPI_Comm_free(&ring);
    MPI_Finalize();
    return 0;
}
