/* A vector of 2 x 2 MPI_INT sent, received as a contiguous of 4 MPI_FLOAT: the same bytes, a
 * different signature. Issue 28 item 1.
 * np: 2
 * expect: type_mismatch ranks 1,0 line 23
 * mpi: completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, ints[8] = {0};
    float floats[4];
    MPI_Datatype strided, four_floats;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(2, 2, 4, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    MPI_Type_contiguous(4, MPI_FLOAT, &four_floats);
    MPI_Type_commit(&four_floats);
    if (rank == 0)
        MPI_Recv(floats, 1, four_floats, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
        MPI_Send(ints, 1, strided, 0, 0, MPI_COMM_WORLD); /* <- reported */
    MPI_Type_free(&strided);
    MPI_Type_free(&four_floats);
    MPI_Finalize();
    return 0;
}
