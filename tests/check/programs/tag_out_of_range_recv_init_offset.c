/* Rank 1 sets up persistent receives tagged base - 2 i for i = 0..2 with base 2: the third tag
 * is -2 (not MPI_ANY_TAG, which is -1 in both MPIs), and its MPI_Recv_init is refused. Errors
 * return here, so the job goes on. Issue 28 items 2 and 8 (persistent requests).
 * np: 2
 * slice: none
 * expect: tag_out_of_range ranks 1 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, values[3] = {0}, base = 2;
    MPI_Request requests[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        for (int i = 0; i < 3; i++)
            MPI_Recv_init(&values[i], 1, MPI_INT, 0, base - 2 * i, MPI_COMM_WORLD, /* <- reported */
                          &requests[i]);
        MPI_Request_free(&requests[0]);
        MPI_Request_free(&requests[1]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
