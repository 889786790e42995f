/* Builtin reduction ops on datatypes they are not defined for (MPI 3.1 §5.9.2), on every rank:
 * MPI_MAXLOC on MPI_INT, MPI_SUM on a contiguous of MPI_INT (builtin ops take predefined types
 * only), MPI_BAND on MPI_DOUBLE. Errors return here, so the job goes on; each call still reaches
 * MPI, which refuses it. Issue 28 item 1 (reductions' op and type).
 * np: 2
 * expect: op_type_mismatch ranks 0 line 25
 * expect: op_type_mismatch ranks 1 line 25
 * expect: op_type_mismatch ranks 0 line 26
 * expect: op_type_mismatch ranks 1 line 26
 * expect: op_type_mismatch ranks 0 line 27
 * expect: op_type_mismatch ranks 1 line 27
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int ints[4] = {0}, out[4];
    double doubles[2] = {0}, sums[2];
    MPI_Datatype pair;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    /* each reduction below pairs an op with a type it is not defined for */
    MPI_Allreduce(ints, out, 4, MPI_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    MPI_Reduce(ints, out, 2, pair, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Allreduce(doubles, sums, 2, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD);
    MPI_Type_free(&pair);
    MPI_Finalize();
    return 0;
}
