/* A nonblocking send of an indexed type (a[0..2) and a[5]) whose last block is written before
 * the Wait. Issue 28 item 4.
 * np: 2
 * slice: none
 * expect: send_buffer_modified ranks 0 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, lengths[2] = {2, 1}, displacements[2] = {0, 5};
    MPI_Request q;
    MPI_Datatype t;
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_indexed(2, lengths, displacements, MPI_INT, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        MPI_Isend(a, 1, t, 1, 0, MPI_COMM_WORLD, &q);
        a[5] = 0;
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(a, 3, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
