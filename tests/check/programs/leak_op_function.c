/* A helper makes the op for each reduction it runs and never frees it; it is called from two
 * sites: one op_leak per rank at the helper's MPI_Op_create, count 2. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: op_leak ranks 0 line 21
 * expect: op_leak ranks 1 line 21
 */
#include <mpi.h>

static void multiply(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((double *)inout)[i] *= ((double *)in)[i];
}

static double product(double x)
{
    MPI_Op op;
    double all;
    MPI_Op_create(multiply, 1, &op); /* <- reported */
    MPI_Allreduce(&x, &all, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
    return all;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double a = product(rank + 2.0);
    double b = product(0.5);
    MPI_Finalize();
    return a == 6.0 && b == 0.25 ? 0 : 1;
}
