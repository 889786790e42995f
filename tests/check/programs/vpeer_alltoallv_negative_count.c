/* Each rank sends each peer the rows between two boundaries with MPI_Alltoallv; rank 2 computes
 * its count for rank 0 from boundaries in the wrong order (lo - hi), a negative count that MPI
 * refuses before anything moves. Errors return here: rank 2 then sends with the right counts,
 * which the others' call matches. Issue 28 item 2 (V and W collectives per peer).
 * np: 3
 * slice: mpich
 * expect: negative_count ranks 2 line 25
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, send[3] = {0}, recv[3] = {0}, counts[3] = {1, 1, 1}, displs[3] = {0, 1, 2};
    int bounds[4] = {0, 1, 2, 3};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    send[0] = send[1] = send[2] = rank;
    if (rank == 2) {
        int bad[3], rc;
        for (int j = 0; j < 3; j++)
            bad[j] = bounds[j + 1] - bounds[j];
        bad[0] = bounds[0] - bounds[1];
        rc = MPI_Alltoallv(send, bad, displs, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD); /* <- reported */
        if (rc == MPI_SUCCESS)
            return 1;
    }
    MPI_Alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD);
    MPI_Finalize();
    return recv[0] == 0 && recv[2] == 2 ? 0 : 1;
}
