/* Both ranks take the maximum of complex numbers, which are not ordered: MPI_MAX is defined for
 * integers and floating point, not MPI_C_DOUBLE_COMPLEX. Errors return here, so the job goes on.
 * Issue 28 items 1, 2 and 8.
 * np: 2
 * slice: none
 * expect: op_type_mismatch ranks 0 line 17
 * expect: op_type_mismatch ranks 1 line 17
 */
#include <complex.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    double complex amplitude = 1.0 + 2.0 * I, largest;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Allreduce(&amplitude, &largest, 1, MPI_C_DOUBLE_COMPLEX, MPI_MAX, /* <- reported */
                  MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
