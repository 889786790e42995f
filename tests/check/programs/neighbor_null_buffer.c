/* On a periodic 1-D Cartesian ring, every rank sends from a NULL buffer with a count of 1 in
 * MPI_Neighbor_allgather (each was to allocate it later). Errors return on the ring, so the job
 * goes on where the MPI refuses the call. Issue 28 item 2.
 * np: 2
 * expect: null_buffer ranks 0 line 21
 * expect: null_buffer ranks 1 line 21
 * mpi: completes abort hang
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int size, periodic = 1, got[2];
    const int *from = NULL;
    MPI_Comm ring;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periodic, 0, &ring);
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    MPI_Neighbor_allgather(from, 1, MPI_INT, got, 1, MPI_INT, ring); /* <- reported */
    MPI_Comm_free(&ring);
    MPI_Finalize();
    return 0;
}
