/* A nonblocking send of an int resized to an extent of two ints (a[0], a[2], a[4]) whose
 * a[4] is written before the Wait. Issue 28 item 4.
 * np: 2
 * slice: none
 * expect: send_buffer_modified ranks 0 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int a[6] = {1, 2, 3, 4, 5, 6};
    MPI_Request q;
    MPI_Datatype t;
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        MPI_Isend(a, 3, t, 1, 0, MPI_COMM_WORLD, &q);
        a[4] = 0;
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(a, 3, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
