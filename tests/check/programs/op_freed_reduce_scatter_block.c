/* Two ops, a commutative and a non-commutative sum, are made; the first is freed while the
 * second lives, and rank 1 then reduces with a copy of the first's handle (MPI_COMM_SELF, so the
 * other rank is not held): MPI_Reduce_scatter_block with a freed op, while another user op is
 * live. Issue 28 item 2.
 * np: 2
 * slice: none
 * mpi: completes abort hang
 * expect: op_freed ranks 1 line 32
 */
#include <mpi.h>

static void add_floats(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((float *)inout)[i] += ((float *)in)[i];
}

int main(int argc, char **argv)
{
    int rank;
    float values[2] = {1.0f, 2.0f}, mine = 0.0f;
    MPI_Op first, second, stale;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Op_create(add_floats, 1, &first);
    MPI_Op_create(add_floats, 0, &second);
    stale = first;
    MPI_Op_free(&first);
    if (rank == 1)
        MPI_Reduce_scatter_block(values, &mine, 1, MPI_FLOAT, stale, MPI_COMM_SELF); /* <- */
    MPI_Op_free(&second);
    MPI_Finalize();
    return 0;
}
