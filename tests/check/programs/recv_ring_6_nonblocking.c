/* A recv cycle over six ranks written with Irecv + Wait before the Isend: the waits form the
 * cycle.
 * np: 6
 * expect: deadlock ranks 0,1,2,3,4,5 line 16
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, in = 0, out = 1;
    MPI_Request rreq, sreq;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Irecv(&in, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, &rreq);
    MPI_Wait(&rreq, MPI_STATUS_IGNORE); /* <- reported */
    MPI_Isend(&out, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &sreq);
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
