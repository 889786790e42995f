/* A nonblocking reduction posted with an op freed just before (a copy of the handle kept in the
 * solver's state), then waited for: MPI_Iallreduce with a freed op, reported at the post's line
 * on every rank. Issue 28 item 2 (nonblocking collectives).
 * np: 2
 * slice: none
 * mpi: completes
 * expect: op_freed ranks 0 line 36
 * expect: op_freed ranks 1 line 36
 */
#include <mpi.h>

struct solver {
    MPI_Op norm;
};

static void max_ints(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        if (((int *)in)[i] > ((int *)inout)[i])
            ((int *)inout)[i] = ((int *)in)[i];
}

int main(int argc, char **argv)
{
    int rank, mine, top = 0;
    struct solver s;
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Op_create(max_ints, 1, &s.norm);
    MPI_Op handle = s.norm;
    MPI_Op_free(&handle);
    mine = rank;
    MPI_Iallreduce(&mine, &top, 1, MPI_INT, s.norm, MPI_COMM_WORLD, &request); /* <- reported */
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
