/* Both ranks look for the smallest value and its owner with MPI_MINLOC, but reduce plain doubles
 * instead of (value, index) pairs of MPI_DOUBLE_INT. Errors return here, so the job goes on.
 * Issue 28 items 1, 2 and 8.
 * np: 2
 * slice: none
 * expect: op_type_mismatch ranks 0 line 20
 * expect: op_type_mismatch ranks 1 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    double value[2], smallest[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    value[0] = 10.0 - rank;
    value[1] = rank;
    MPI_Reduce(value, smallest, 2, MPI_DOUBLE, MPI_MINLOC, 0, MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
