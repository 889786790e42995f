/* A module's reduce helper uses the op it made at setup; its teardown frees the op, and rank 0
 * calls the helper once more with only itself (MPI_COMM_SELF): MPI_Reduce with an op already
 * freed, reported at the helper's line. Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes abort
 * expect: op_freed ranks 0 line 24
 */
#include <mpi.h>

static MPI_Op max_abs;

static void max_of_abs(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    double *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = (a[i] < 0 ? -a[i] : a[i]) > b[i] ? (a[i] < 0 ? -a[i] : a[i]) : b[i];
}

static double largest(double x, MPI_Comm comm)
{
    double out = 0.0;
    MPI_Reduce(&x, &out, 1, MPI_DOUBLE, max_abs, 0, comm); /* <- reported */
    return out;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Op_create(max_of_abs, 1, &max_abs);
    double m = largest(-rank - 1.0, MPI_COMM_WORLD);
    MPI_Op keep = max_abs;
    MPI_Op_free(&keep);
    if (rank == 0)
        m += largest(m, MPI_COMM_SELF);
    MPI_Finalize();
    return m < 0;
}
