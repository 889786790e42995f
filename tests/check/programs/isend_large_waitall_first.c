/* Both ranks Isend 4 MiB to each other and Waitall on the send before posting the Irecv.
 * np: 2
 * expect: deadlock ranks 0,1 line 16
 */
#include <mpi.h>

static char out[1 << 22], in[1 << 22];

int main(int argc, char **argv)
{
    int rank;
    MPI_Request reqs[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Isend(out, sizeof out, MPI_BYTE, 1 - rank, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Waitall(1, reqs, MPI_STATUSES_IGNORE); /* <- reported */
    MPI_Irecv(in, sizeof in, MPI_BYTE, 1 - rank, 0, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(1, &reqs[1], MPI_STATUSES_IGNORE);
    MPI_Finalize();
    return 0;
}
