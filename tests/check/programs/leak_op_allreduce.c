/* A user-defined reduction (the largest magnitude) used in an MPI_Allreduce and never freed: one
 * op_leak per rank at MPI_Op_create. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: op_leak ranks 0 line 27
 * expect: op_leak ranks 1 line 27
 */
#include <math.h>
#include <mpi.h>

static void max_magnitude(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    double *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = fabs(a[i]) > fabs(b[i]) ? a[i] : b[i];
}

int main(int argc, char **argv)
{
    int rank;
    double mine, widest;
    MPI_Op op;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mine = rank ? -3.0 : 2.0;
    MPI_Op_create(max_magnitude, 1, &op); /* <- reported */
    MPI_Allreduce(&mine, &widest, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
    MPI_Finalize();
    return widest == -3.0 ? 0 : 1;
}
