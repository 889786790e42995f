/* On a non-periodic 1-D Cartesian line (the ends' outer neighbours are MPI_PROC_NULL), every rank
 * starts MPI_Ineighbor_alltoall and never completes it. Issue 28 item 3 (requests of
 * nonblocking collectives).
 * np: 2
 * expect: request_not_completed ranks 0 line 18
 * expect: request_not_completed ranks 1 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int size, periodic = 0, out[2] = {0, 0}, in[2];
    MPI_Comm line;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periodic, 0, &line);
    MPI_Ineighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, line, &req); /* <- reported */
    MPI_Barrier(line);
    MPI_Comm_free(&line);
    MPI_Finalize();
    return 0;
}
