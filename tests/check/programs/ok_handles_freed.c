/* Every kind of handle made and freed: groups (one of MPI_Comm_group of a predefined
 * communicator), a datatype built from a derived type (both freed, the inner one first, while the
 * outer is still in use), an op, infos (one a copy), a window and a communicator; a value MPI
 * hands out again after a free is a new object, made and freed in a loop. Issue 28 item 3.
 * np: 2
 * slice: mpich
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
    int rank, zero = 0, matrix[4][4] = {{0}}, sum = 0, slot = 0;
    MPI_Group world, first;
    MPI_Datatype row, rows;
    MPI_Op op;
    MPI_Info hints, copy;
    MPI_Win win;
    MPI_Comm comm;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &zero, &first);
    MPI_Group_free(&first);
    MPI_Group_free(&world);
    MPI_Type_contiguous(4, MPI_INT, &row);
    MPI_Type_vector(2, 1, 2, row, &rows);
    MPI_Type_free(&row);
    MPI_Type_commit(&rows);
    MPI_Bcast(matrix, 1, rows, 0, MPI_COMM_WORLD);
    MPI_Type_free(&rows);
    for (int i = 0; i < 3; i++) {
        MPI_Type_contiguous(i + 1, MPI_INT, &row);
        MPI_Type_free(&row);
    }
    MPI_Op_create(add_ints, 1, &op);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, op, MPI_COMM_WORLD);
    MPI_Op_free(&op);
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "no_locks", "true");
    MPI_Info_dup(hints, &copy);
    MPI_Win_create(&slot, sizeof slot, sizeof slot, copy, MPI_COMM_WORLD, &win);
    MPI_Info_free(&copy);
    MPI_Win_free(&win);
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, hints, &comm);
    MPI_Info_free(&hints);
    MPI_Barrier(comm);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return sum == 1 ? 0 : 1;
}
