/* Both ranks start a nonblocking bitwise AND over doubles (meant as a "all flags set" test on
 * values stored as doubles): MPI_BAND is defined for integers and bytes only. Errors return here,
 * so the job goes on. Issue 28 items 1, 2 and 8 (nonblocking collectives).
 * np: 2
 * slice: mpich
 * expect: op_type_mismatch ranks 0 line 17
 * expect: op_type_mismatch ranks 1 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    double flags[2] = {1.0, 1.0}, all[2];
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Iallreduce(flags, all, 2, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD, &request); /* <- reported */
    MPI_Finalize();
    return 0;
}
