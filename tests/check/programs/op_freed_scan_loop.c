/* A prefix-sum loop frees its op at the end of the first step but keeps the handle it read before
 * the loop, so the second step's MPI_Scan uses an op already freed (reported once per rank; the
 * first step is correct). Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes abort
 * expect: op_freed ranks 0 line 30
 * expect: op_freed ranks 1 line 30
 */
#include <mpi.h>

static void add_longs(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((long *)inout)[i] += ((long *)in)[i];
}

int main(int argc, char **argv)
{
    int rank;
    long mine = 1, prefix = 0;
    MPI_Op plus;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Op_create(add_longs, 1, &plus);
    const MPI_Op used = plus;
    for (int step = 0; step < 2; step++) {
        MPI_Scan(&mine, &prefix, 1, MPI_LONG, used, MPI_COMM_WORLD); /* <- at step 1 */
        if (step == 0)
            MPI_Op_free(&plus);
    }
    MPI_Finalize();
    return 0;
}
