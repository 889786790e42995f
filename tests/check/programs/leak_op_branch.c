/* Rank 0 alone makes an op for a local reduction (MPI_Reduce_local) of what it gathered, in its
 * branch, and never frees it: one op_leak, rank 0's. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: op_leak ranks 0 line 26
 */
#include <mpi.h>

static void keep_larger(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        if (((int *)in)[i] > ((int *)inout)[i])
            ((int *)inout)[i] = ((int *)in)[i];
}

int main(int argc, char **argv)
{
    int rank, value, values[2] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = 10 + rank;
    MPI_Gather(&value, 1, MPI_INT, values, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Op larger;
        MPI_Op_create(keep_larger, 1, &larger); /* <- reported */
        MPI_Reduce_local(&values[0], &values[1], 1, MPI_INT, larger);
        value = values[1];
    }
    MPI_Finalize();
    return rank == 0 && value != 11;
}
