/* Rank 1 sets up a persistent receive into a buffer pointer that is still NULL (it is allocated
 * only after the setup): MPI_Recv_init refuses it. Errors return here, so the job goes on. Issue
 * 28 items 2 and 8 (persistent requests).
 * np: 2
 * slice: none
 * expect: null_buffer ranks 1 line 20
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank;
    long *inbox = NULL;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        MPI_Recv_init(inbox, 16, MPI_LONG, 0, 0, MPI_COMM_WORLD, &request); /* <- reported */
        inbox = calloc(16, sizeof *inbox);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    free(inbox);
    MPI_Finalize();
    return 0;
}
