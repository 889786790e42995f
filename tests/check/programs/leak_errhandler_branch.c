/* Rank 0 alone installs its own handler on the world, in its branch, and never frees it: one
 * errhandler_leak, rank 0's. Issue 28 item 3.
 * np: 2
 * slice: none
 * expect: errhandler_leak ranks 0 line 22
 */
#include <mpi.h>

static void note_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm, (void)code;
}

int main(int argc, char **argv)
{
    int rank, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Errhandler handler;
        /* the handler stays in use by MPI_COMM_WORLD: it may be freed at once, but never is */
        MPI_Comm_create_errhandler(note_error, &handler); /* <- reported */
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler);
    }
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return sum == 1 ? 0 : 1;
}
