/* Pairwise exchange of 4 MiB between ranks r and r^1 with MPI_Sendrecv, which cannot deadlock.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

static char out[1 << 22], in[1 << 22];

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Sendrecv(out, sizeof out, MPI_BYTE, rank ^ 1, 0, in, sizeof in, MPI_BYTE, rank ^ 1, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
