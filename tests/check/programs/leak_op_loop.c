/* An op made anew in each iteration of a loop of reductions and never freed: one op_leak per
 * rank at MPI_Op_create, count 3. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: op_leak ranks 0 line 25
 * expect: op_leak ranks 1 line 25
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
    int rank, total = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int step = 0; step < 3; step++) {
        MPI_Op sum;
        int part = rank + step, all;
        MPI_Op_create(add_ints, 1, &sum); /* <- reported */
        MPI_Allreduce(&part, &all, 1, MPI_INT, sum, MPI_COMM_WORLD);
        total += all;
    }
    MPI_Finalize();
    return total == 9 ? 0 : 1;
}
