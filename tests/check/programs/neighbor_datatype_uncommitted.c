/* On a periodic 1-D Cartesian ring, the ranks exchange with MPI_Neighbor_alltoallw whose receive
 * datatype for the second neighbour (a contiguous int) was never committed. Errors return on the
 * ring, so the job goes on. Issue 28 item 2.
 * np: 2
 * expect: datatype_uncommitted ranks 0 line 23
 * expect: datatype_uncommitted ranks 1 line 23
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int size, periodic = 1, counts[2] = {1, 1}, out[2] = {0, 0}, in[2];
    MPI_Aint displs[2] = {0, sizeof(int)};
    MPI_Datatype one, sendtypes[2] = {MPI_INT, MPI_INT}, recvtypes[2];
    MPI_Comm ring;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periodic, 0, &ring);
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(1, MPI_INT, &one);
    recvtypes[0] = MPI_INT;
    recvtypes[1] = one;
    MPI_Neighbor_alltoallw(out, counts, displs, sendtypes, in, counts, displs, recvtypes, /* <- reported */
                           ring);
    MPI_Type_free(&one);
    MPI_Comm_free(&ring);
    MPI_Finalize();
    return 0;
}
