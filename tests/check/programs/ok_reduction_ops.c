/* Reduction ops on the datatypes they are defined for: MPI_MAXLOC on MPI_2INT, MPI_SUM on
 * MPI_INTEGER and MPI_UNSIGNED_LONG, MPI_LOR on MPI_C_BOOL, MPI_BXOR on MPI_BYTE, and a
 * user-defined op on a derived type. Issue 28 item 1.
 * np: 2
 * expect: clean
 */
#include <mpi.h>
#include <stdbool.h>

static void add_pairs(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < 2 * *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv)
{
    int rank, pairs[4] = {0}, out[4], integers[2] = {1, 2};
    unsigned long counts[2] = {1, 2}, total[2];
    bool flags[2] = {false, true}, any[2];
    unsigned char bytes[2] = {1, 2}, mixed[2];
    MPI_Datatype pair;
    MPI_Op add;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    pairs[1] = rank;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Op_create(add_pairs, 1, &add);
    MPI_Allreduce(pairs, out, 2, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
    MPI_Allreduce(integers, out, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(counts, total, 2, MPI_UNSIGNED_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(flags, any, 2, MPI_C_BOOL, MPI_LOR, MPI_COMM_WORLD);
    MPI_Allreduce(bytes, mixed, 2, MPI_BYTE, MPI_BXOR, MPI_COMM_WORLD);
    MPI_Allreduce(pairs, out, 2, pair, add, MPI_COMM_WORLD);
    MPI_Op_free(&add);
    MPI_Type_free(&pair);
    MPI_Finalize();
    return 0;
}
