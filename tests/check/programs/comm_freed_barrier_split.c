/* Each rank splits the world by parity, keeps the handle in a struct of its halo state, frees the
 * communicator through the variable and later synchronizes on the struct's stale copy (rank 0
 * only, so the other ranks are not held): a communicator used after MPI_Comm_free. Issue 28
 * item 2.
 * np: 2
 * slice: none
 * mpi: completes
 * expect: comm_freed ranks 0 line 29
 */
#include <mpi.h>

struct halo {
    MPI_Comm comm;
    int width;
};

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm part;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &part);
    struct halo h = {part, 1};
    MPI_Comm_free(&part);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Barrier(h.comm); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return h.width - 1;
}
