/* Both ranks broadcast four integers described by a type handle never set up (MPI_DATATYPE_NULL):
 * both MPIs refuse the call. Errors return here, so the job goes on. Issue 28 item 2.
 * np: 2
 * expect: datatype_null ranks 0 line 15
 * expect: datatype_null ranks 1 line 15
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int values[4] = {0};
    MPI_Datatype quad = MPI_DATATYPE_NULL; /* meant to be four MPI_INT, contiguous */
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Bcast(values, 1, quad, 0, MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
