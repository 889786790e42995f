/* A Sendrecv ring inside each half of an MPI_Comm_split (colour rank / 2), with local ranks.
 * np: 4
 * expect: clean
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sub, n, in = -1;
    MPI_Comm half;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, -rank, &half);
    MPI_Comm_rank(half, &sub);
    MPI_Comm_size(half, &n);
    MPI_Sendrecv(&rank, 1, MPI_INT, (sub + 1) % n, 0, &in, 1, MPI_INT, (sub + n - 1) % n, 0, half,
                 MPI_STATUS_IGNORE);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return in == (rank ^ 1) ? 0 : 1;
}
