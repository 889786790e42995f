/* A nonblocking send of a vector type (every other int of a) whose block element a[2] is
 * written before the Wait; the checksum is taken over the type's blocks. Issue 28 item 4.
 * np: 2
 * slice: none
 * expect: send_buffer_modified ranks 0 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    MPI_Request q;
    MPI_Datatype t;
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(4, 1, 2, MPI_INT, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        MPI_Isend(a, 1, t, 1, 0, MPI_COMM_WORLD, &q);
        a[2] = -1;
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(a, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
