/* Correct: a user op made and freed at each step, each used only while it lives. MPI hands a
 * freed op's handle out again for the next one (MPICH's handle pool), so the handle of a freed op
 * comes back as a valid one: no op_freed. Issue 28 item 2.
 * np: 2
 * slice: none
 * expect: clean
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
    int value = 1, sum = 0;
    MPI_Init(&argc, &argv);
    for (int step = 0; step < 4; step++) {
        MPI_Op op;
        MPI_Op_create(add_ints, step % 2, &op);
        MPI_Allreduce(&value, &sum, 1, MPI_INT, op, MPI_COMM_WORLD);
        MPI_Reduce(&value, &sum, 1, MPI_INT, op, 0, MPI_COMM_WORLD);
        MPI_Op_free(&op);
    }
    MPI_Finalize();
    return 0;
}
