/* A persistent send of a vector type written between its Start and its Wait. Issue 28 item 4.
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
    MPI_Type_vector(2, 1, 4, MPI_INT, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        MPI_Send_init(a, 2, t, 1, 0, MPI_COMM_WORLD, &q);
        MPI_Start(&q);
        a[4] = 0;
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        MPI_Request_free(&q);
    } else {
        MPI_Recv(a, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
