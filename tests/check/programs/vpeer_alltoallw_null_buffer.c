/* Every rank exchanges one int with every rank through MPI_Alltoallw (byte displacements); rank 1
 * passes its send buffer through a pointer it never set (NULL) with positive counts. Errors
 * return here; MPICH refuses the call, and rank 1 then exchanges from its real buffer.
 * Issue 28 item 2 (V and W collectives per peer).
 * np: 3
 * slice: none
 * expect: null_buffer ranks 1 line 23
 * mpi: completes abort
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, send[3], recv[3] = {0}, *out = NULL, counts[3] = {1, 1, 1};
    int bytes[3] = {0, sizeof(int), 2 * sizeof(int)};
    MPI_Datatype types[3] = {MPI_INT, MPI_INT, MPI_INT};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    send[0] = send[1] = send[2] = rank;
    if (rank == 1) {
        int rc = MPI_Alltoallw(out, counts, bytes, types, recv, counts, bytes, types, MPI_COMM_WORLD); /* <- reported */
        if (rc == MPI_SUCCESS)
            return 1;
    }
    MPI_Alltoallw(send, counts, bytes, types, recv, counts, bytes, types, MPI_COMM_WORLD);
    MPI_Finalize();
    return recv[2] == 2 ? 0 : 1;
}
