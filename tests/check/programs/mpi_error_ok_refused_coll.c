/* Two collectives both MPIs refuse (MPI_ERRORS_RETURN: the error comes back), each called again
 * correctly: root 0's MPI_Scatterv with MPI_IN_PLACE as its send buffer (where the standard
 * forbids it; not an argument check yet), which ranks 1 and 2 wait in, and rank 1's MPI_Alltoallv
 * with a negative count; a Barrier follows. The Scatterv is not reported: a refused collective's
 * arrival is withdrawn and the retry fills its slot (before, the retry counted as the rank's next
 * collective: a false collective_mismatch with the others' next one). The Alltoallv's per-peer
 * count is an argument check, reported as such (the call is then not modelled). Issue 28 items 2
 * and 6.
 * np: 3
 * expect: negative_count ranks 1 line 29
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, send[3] = {1, 2, 3}, recv[3], value = 0, counts[3] = {1, 1, 1}, displs[3] = {0, 1, 2};
    int refused = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        refused = MPI_Scatterv(MPI_IN_PLACE, counts, displs, MPI_INT, &value, 1, MPI_INT, 0,
                               MPI_COMM_WORLD) != MPI_SUCCESS;
    }
    MPI_Scatterv(send, counts, displs, MPI_INT, &value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 1) {
        counts[0] = -1;
        refused = MPI_Alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT,
                                MPI_COMM_WORLD) != MPI_SUCCESS;
        counts[0] = 1;
    }
    MPI_Alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return refused && value == rank + 1 ? 0 : 1;
}
