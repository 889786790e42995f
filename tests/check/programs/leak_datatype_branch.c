/* Only rank 1 describes the message with a derived type, in its branch, and never frees it: one
 * datatype_leak, rank 1's, at the constructor. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: datatype_leak ranks 1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, values[6] = {1, 2, 3, 4, 5, 6};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(values, 6, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Datatype triple;
        MPI_Type_contiguous(3, MPI_INT, &triple); /* <- reported */
        MPI_Type_commit(&triple);
        MPI_Recv(values, 2, triple, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
