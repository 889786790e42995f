/* MPI_Type_free of a type a pending request uses (legal: the request keeps it, MPI 3.1 §4.1.9),
 * and a new type made before the Wait that may reuse the handle. Issue 28 item 1.
 * np: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, data[8] = {0};
    float floats[4] = {0};
    MPI_Datatype pair, other;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    if (rank == 0) {
        MPI_Irecv(data, 4, pair, 1, 0, MPI_COMM_WORLD, &request);
        MPI_Type_free(&pair);
        MPI_Type_contiguous(4, MPI_FLOAT, &other);
        MPI_Type_commit(&other);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        MPI_Recv(floats, 1, other, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Type_free(&other);
    } else {
        MPI_Type_free(&pair);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(data, 8, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Send(floats, 4, MPI_FLOAT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
