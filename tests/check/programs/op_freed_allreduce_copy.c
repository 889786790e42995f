/* Each rank makes a sum op, keeps a copy of its handle, frees the op (MPI_Op_free sets only the
 * handle it was given to MPI_OP_NULL) and reduces with the copy: a reduction op used after
 * MPI_Op_free, reported before the call reaches MPI (MPICH computes the sum regardless, Open MPI
 * crashes in the call). Issue 28 item 2.
 * np: 2
 * slice: mpich
 * mpi: completes
 * expect: op_freed ranks 0 line 30
 * expect: op_freed ranks 1 line 30
 */
#include <mpi.h>

static void add_ints(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv)
{
    int rank, value = 1, sum = 0;
    MPI_Op sum_op, copy;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Op_create(add_ints, 1, &sum_op);
    copy = sum_op;
    MPI_Op_free(&sum_op);
    MPI_Allreduce(&value, &sum, 1, MPI_INT, copy, MPI_COMM_WORLD); /* <- reported */
    MPI_Finalize();
    return 0;
}
