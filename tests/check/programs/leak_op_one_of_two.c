/* Two ops, the minimum and the maximum of magnitudes; the program frees the first and forgets the
 * second: one op_leak per rank at the second MPI_Op_create only. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: op_leak ranks 0 line 36
 * expect: op_leak ranks 1 line 36
 */
#include <math.h>
#include <mpi.h>

static void min_magnitude(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    double *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = fabs(a[i]) < fabs(b[i]) ? a[i] : b[i];
}

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
    double mine, low, high;
    MPI_Op smallest, largest;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mine = rank ? -4.0 : 1.0;
    MPI_Op_create(min_magnitude, 1, &smallest);
    MPI_Op_create(max_magnitude, 1, &largest); /* <- reported */
    MPI_Allreduce(&mine, &low, 1, MPI_DOUBLE, smallest, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &high, 1, MPI_DOUBLE, largest, MPI_COMM_WORLD);
    MPI_Op_free(&smallest);
    MPI_Finalize();
    return low == 1.0 && high == -4.0 ? 0 : 1;
}
