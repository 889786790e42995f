/* Legal partial receives: 3 MPI_INT into room for 10, and 2 contiguous(3, MPI_INT) into room for
 * 10 MPI_INT (a receive longer than its message is legal, MPI 3.1 §3.2.4). Issue 28 item 1.
 * np: 2
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, data[10] = {0};
    MPI_Datatype triple;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_contiguous(3, MPI_INT, &triple);
    MPI_Type_commit(&triple);
    if (rank == 0) {
        MPI_Send(data, 3, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Send(data, 2, triple, 1, 1, MPI_COMM_WORLD);
    } else {
        MPI_Recv(data, 10, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(data, 10, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&triple);
    MPI_Finalize();
    return 0;
}
