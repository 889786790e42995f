/* A ring shift whose right neighbour is computed as rank + 1 without the wrap-around: the last
 * rank sends to rank `size`, and its Isend is refused. Errors return here, so the job goes on.
 * Issue 28 items 2 and 8.
 * np: 2
 * slice: none
 * expect: rank_out_of_range ranks 1 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, token = 0;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int right = rank + 1; /* should be (rank + 1) % size */
    if (rank == size - 1)
        MPI_Isend(&token, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &request); /* <- reported */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
